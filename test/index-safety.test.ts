import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { answersDirOf } from "../src/index/index-db.js";
import { indexPathFor } from "../src/index/index-location.js";
import { storeSearch } from "../src/index/store-search.js";
import { searchStore } from "../src/search/fulltext.js";
import { parseQuery } from "../src/search/query.js";
import { scanStore } from "../src/scan/scan-store.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, makeTmpDir, settle } from "./helpers/tmp-store.js";

/*
 * Issue 34: the index must never answer differently from reading the files. Each case on a
 * real store, a real SQLite index and real links in a temporary folder: what `list`,
 * `search` and `stats` print with the index is what they print without it
 * (PI_SESSIONS_INDEX=0), whatever was done to the files, the index, its kept answers or
 * its folder.
 */

afterEach(() => cleanupTmp());

const HEAD = (id: string) =>
  JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-05-02T09:14:03.221Z", cwd: "/tmp/proj" });
let clock = 0;
const said = (id: string, role: "user" | "assistant", text: string) =>
  JSON.stringify({
    type: "message",
    id,
    parentId: null,
    timestamp: new Date(Date.parse("2026-05-02T09:15:00Z") + ++clock * 1000).toISOString(),
    message:
      role === "user"
        ? { role, content: text, timestamp: 1 }
        : { role, content: [{ type: "text", text }], stopReason: "stop", model: "m" },
  });

/** Filler words, all different, so that no query below finds them. */
const filler = (n: number) => Array.from({ length: 12 }, (_, i) => `fill${n.toString(36)}x${i.toString(36)}`).join(" ");

/**
 * A store of three sessions: small "a" (first message "alpha wombat"), small "c", and "b"
 * of about 40 KiB whose user messages past its first 8 KiB hold "numbat" and "dingos".
 */
function makeStore(): { store: string; a: string; b: string; c: string } {
  const store = join(makeTmpDir("pi-sessions-safety-"), "sessions");
  const dir = join(store, "--tmp-proj--");
  mkdirSync(dir, { recursive: true });
  const a = join(dir, "2026-05-02T09-14-03-221Z_a.jsonl");
  const b = join(dir, "2026-05-02T09-14-04-221Z_b.jsonl");
  const c = join(dir, "2026-05-02T09-14-05-221Z_c.jsonl");
  writeFileSync(
    a,
    [HEAD("0196e0a2-8c1d-7b3e-9f40-00000000000a"), said("a1", "user", "alpha wombat"), said("a2", "assistant", "ok")]
      .map((l) => l + "\n")
      .join(""),
  );
  const lines = [HEAD("0196e0a2-8c1d-7b3e-9f40-00000000000b"), said("b0", "user", "bravo first question")];
  for (let i = 1; lines.join("\n").length < 40 * 1024; i++) {
    const text = i === 40 ? `marker numbat ${filler(i)}` : i === 70 ? `marker dingos ${filler(i)}` : filler(i);
    lines.push(said(`b${i}`, i % 2 ? "user" : "assistant", text));
  }
  writeFileSync(b, lines.map((l) => l + "\n").join(""));
  writeFileSync(
    c,
    [
      HEAD("0196e0a2-8c1d-7b3e-9f40-00000000000c"),
      said("c1", "user", "charlie question"),
      said("c2", "assistant", "ok"),
    ]
      .map((l) => l + "\n")
      .join(""),
  );
  // Written a while ago, as a store pi is not writing to this very moment.
  settle(store);
  return { store, a, b, c };
}

/** Writes `to` over the first `from` in the file, in place: same inode, same size. */
function rewriteInPlace(path: string, from: string, to: string): void {
  expect(to.length).toBe(from.length);
  const at = readFileSync(path).indexOf(from);
  expect(at).toBeGreaterThanOrEqual(0);
  const fd = openSync(path, "r+");
  try {
    writeSync(fd, Buffer.from(to), 0, to.length, at);
  } finally {
    closeSync(fd);
  }
}

function cli(store: string, env: NodeJS.ProcessEnv) {
  const run = async (args: string[], on = true) => {
    const r = await runCli([...args, "--session-dir", store], { env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" } });
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  };
  /** The command with the index, beside it without: code and stdout the same, and what it said on stderr. */
  const same = async (args: string[]) => {
    const off = await run(args, false);
    const on = await run(args, true);
    expect({ args, code: on.code, stdout: on.stdout }).toEqual({ args, code: off.code, stdout: off.stdout });
    return { on, off };
  };
  return { run, same };
}

const paths = (stdout: string) => (JSON.parse(stdout) as { path: string }[]).map((r) => r.path).sort();
const lines = (text: string) => text.split("\n").filter(Boolean);

describe("a rewrite that keeps the file's path, inode, size and mtime", () => {
  it("is read again (its ctime changed): list, search and the kept answers say what the file says now", async () => {
    const { store, a } = makeStore();
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const { run, same } = cli(store, env);
    expect((await run(["index"])).code).toBe(0);
    // Asked twice on the same store: the second run keeps its answer.
    for (let i = 0; i < 3; i++) await same(["list", "--all", "--json"]);
    for (let i = 0; i < 3; i++) await same(["search", "--all", "--json", "wombat"]);

    const was = statSync(a);
    rewriteInPlace(a, "wombat", "koalas");
    utimesSync(a, was.atime, was.mtime); // put back, as an editor or a sync tool does (touch -r)
    const now = statSync(a);
    expect([now.ino, now.size, now.mtimeMs]).toEqual([was.ino, was.size, was.mtimeMs]);
    expect(now.ctimeMs).not.toBe(was.ctimeMs);

    const listed = await same(["list", "--all", "--json"]);
    expect(listed.on.stdout).toContain("alpha koalas");
    expect(paths((await same(["search", "--all", "--json", "koalas"])).on.stdout)).toEqual([a]);
    expect((await same(["search", "--all", "--json", "wombat"])).on.stdout).toBe("[]\n");
    // And from then on (the index caught up).
    await same(["list", "--all", "--json"]);
    expect(paths((await same(["search", "--all", "--json", "koalas"])).on.stdout)).toEqual([a]);
  });

  it("is read again when another file was renamed in on the freed inode", async () => {
    const { store, c } = makeStore();
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const { run, same } = cli(store, env);
    expect((await run(["index"])).code).toBe(0);
    for (let i = 0; i < 3; i++) await same(["list", "--all", "--json"]);
    const was = statSync(c);
    const text = readFileSync(c, "utf8").replace("charlie", "delta!!");
    unlinkSync(c);
    // A new file written and renamed into place, until one gets the freed inode (most file
    // systems hand it out again at once; where none does, the new file is simply another).
    const tries: string[] = [];
    for (let i = 0; i < 50; i++) {
      const tmp = `${c}.new${i}`;
      writeFileSync(tmp, text);
      tries.push(tmp);
      if (statSync(tmp).ino === was.ino) break;
    }
    renameSync(tries.at(-1)!, c);
    for (const t of tries.slice(0, -1)) rmSync(t);
    utimesSync(c, was.atime, was.mtime);
    expect([statSync(c).size, statSync(c).mtimeMs]).toEqual([was.size, was.mtimeMs]);
    expect((await same(["list", "--all", "--json"])).on.stdout).toContain("delta!! question");
    expect(paths((await same(["search", "--all", "--json", "delta!!"])).on.stdout)).toEqual([c]);
  });
});

describe("an in-place rewrite past the first 4 KiB (same inode, a new mtime)", () => {
  it("is indexed again whole, at the same size and when it also grew: search finds what was written", async () => {
    const { store, b } = makeStore();
    expect(readFileSync(b).indexOf("numbat")).toBeGreaterThan(8192);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const { run, same } = cli(store, env);
    expect((await run(["index"])).code).toBe(0);
    expect(paths((await same(["search", "--all", "--json", "numbat"])).on.stdout)).toEqual([b]);

    // The same size.
    rewriteInPlace(b, "numbat", "quolls");
    settle(b); // a new mtime, a while ago: the index's own check, not the moment's
    expect(paths((await same(["search", "--all", "--json", "quolls"])).on.stdout)).toEqual([b]);
    expect((await same(["search", "--all", "--json", "numbat"])).on.stdout).toBe("[]\n");

    // Larger: rewritten, and a line added after.
    rewriteInPlace(b, "dingos", "emuses");
    writeFileSync(b, said("b999", "user", "appended platypus") + "\n", { flag: "a" });
    settle(b);
    expect(paths((await same(["search", "--all", "--json", "emuses"])).on.stdout)).toEqual([b]);
    expect(paths((await same(["search", "--all", "--json", "platypus"])).on.stdout)).toEqual([b]);
    expect((await same(["search", "--all", "--json", "dingos"])).on.stdout).toBe("[]\n");

    // Found by the index itself (the file indexed again), not only by reading it.
    const db = new DatabaseSync(indexPathFor(store, env)!, { readOnly: true });
    // The rows holding every trigram of the word (the index's own kind of query) that name a
    // line (the text of a file indexed again whole leaves FTS rows naming none: forget.ts).
    const rows = (word: string) =>
      db
        .prepare("SELECT count(*) AS n FROM chat JOIN lines ON lines.rid = chat.rowid WHERE chat MATCH ?")
        .get(Array.from({ length: word.length - 2 }, (_, i) => `"${word.slice(i, i + 3)}"`).join(" AND "));
    try {
      for (const word of ["quolls", "emuses", "platypus"])
        expect({ word, rows: rows(word) }).toEqual({ word, rows: { n: 1 } });
      for (const word of ["numbat", "dingos"]) expect({ word, rows: rows(word) }).toEqual({ word, rows: { n: 0 } });
    } finally {
      db.close();
    }
  });
});

describe("a kept answer cut short or with a bit flipped", () => {
  /** The kept answer files (not the marks of a store seen once), largest first. */
  function answerFiles(env: { PI_SESSIONS_CACHE_DIR: string }, store: string): string[] {
    const dir = answersDirOf(indexPathFor(store, env)!);
    return readdirSync(dir)
      .map((f) => join(dir, f))
      .filter((f) => statSync(f).size > 400)
      .sort((x, y) => statSync(y).size - statSync(x).size);
  }

  it("is never printed: list --json and search --json answer from the files again", async () => {
    const { store } = makeStore();
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const { same } = cli(store, env);
    for (const args of [
      ["list", "--all", "--json"],
      ["search", "--all", "--json", "marker"],
    ]) {
      for (const harm of ["cut short", "a bit flipped"]) {
        for (let i = 0; i < 3; i++) await same(args);
        const [file] = answerFiles(env, store).filter((f) =>
          readFileSync(f).includes(args[0] === "list" ? "[\n" : "marker"),
        );
        expect(file).toBeDefined();
        const size = statSync(file).size;
        if (harm === "cut short") truncateSync(file, Math.floor(size / 2));
        else {
          const bytes = readFileSync(file);
          bytes[Math.floor(size * 0.75)] ^= 0x04;
          writeFileSync(file, bytes);
        }
        // The same as without the index (same() checks it): whole JSON, not what was kept.
        const { on } = await same(args);
        expect(() => JSON.parse(on.stdout) as unknown).not.toThrow();
      }
    }
    // No temporary file is left behind.
    const dir = answersDirOf(indexPathFor(store, env)!);
    expect(readdirSync(dir).filter((f) => f.startsWith(".tmp-"))).toEqual([]);
  });
});

describe("a locked or full index", () => {
  it("another process holding its write lock: list, search, stats and the browser's search answer from the files", async () => {
    const { store, a } = makeStore();
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const { run, same } = cli(store, env);
    expect((await run(["index"])).code).toBe(0);
    // Something for the index to catch up with (search writes it before it searches), its
    // summary's row written already (by a listing).
    writeFileSync(a, said("a9", "user", "appended walrus") + "\n", { flag: "a" });
    settle(a);
    await same(["list", "--all"]);
    const holder = new DatabaseSync(indexPathFor(store, env)!);
    holder.exec("BEGIN IMMEDIATE");
    try {
      for (const args of [
        ["search", "--all", "--json", "walrus"],
        ["search", "--all", "walrus"],
        ["list", "--all", "--json"],
        ["stats", "--all", "--json"],
      ]) {
        const { on } = await same(args);
        expect({ args, code: on.code, stderr: lines(on.stderr).length <= 1 }).toEqual({ args, code: 0, stderr: true });
      }
      // The browser's full-text search (its scan worker's writes wait their turn, or give up).
      const { sessions } = await scanStore(store);
      const got: string[] = [];
      const want: string[] = [];
      await storeSearch(store, env)(sessions, parseQuery("walrus"), {
        includeTools: false,
        onMatch: (p) => got.push(p),
      });
      await searchStore(
        sessions.map((s) => s.path),
        parseQuery("walrus"),
        { includeTools: false, onMatch: (p) => want.push(p) },
      );
      expect(got).toEqual(want);
      expect(got).toEqual([a]);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  });

  const root = process.getuid?.() === 0 && process.platform === "linux";
  it.skipIf(!root)(
    "a full cache disk (SQLITE_FULL): they answer from the files, one line on stderr at most",
    async () => {
      const { store, a } = makeStore();
      const mount = makeTmpDir("pi-sessions-full-");
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mount]);
      try {
        const env = { PI_SESSIONS_CACHE_DIR: join(mount, "cache") };
        const { run, same } = cli(store, env);
        expect((await run(["index"])).code).toBe(0);
        // The disk filled up, but for room enough to open the index (its -shm takes 32 KiB).
        const fill: string[] = [];
        try {
          for (let i = 0; ; i++) {
            const f = join(mount, `fill-${i}`);
            fill.push(f);
            writeFileSync(f, Buffer.alloc(64 * 1024, 1));
          }
        } catch {
          // Full.
        }
        rmSync(fill.shift()!);
        // Much to index: more than the room left.
        const words = Array.from({ length: 30000 }, (_, i) => `w${i.toString(36)}z`).join(" ");
        writeFileSync(a, said("a9", "user", `appended walrus ${words}`) + "\n", { flag: "a" });
        settle(a);
        for (const args of [
          ["search", "--all", "--json", "walrus"],
          ["list", "--all", "--json"],
          ["stats", "--all", "--json"],
        ]) {
          const { on } = await same(args);
          expect({ args, code: on.code, stderr: lines(on.stderr).length <= 1 }).toEqual({
            args,
            code: 0,
            stderr: true,
          });
        }
      } finally {
        execFileSync("umount", [mount]);
      }
    },
  );
});

describe("the cache folder holds ours and nothing else", () => {
  it("a link planted as the index file: its target is not touched, nor made at a dangling link's target", async () => {
    const { store } = makeStore();
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const { same } = cli(store, env);
    const index = indexPathFor(store, env)!;
    mkdirSync(dirname(index), { recursive: true, mode: 0o700 });
    const victim = join(makeTmpDir(), "notes.txt");
    writeFileSync(victim, "my notes\n");
    chmodSync(victim, 0o644);
    symlinkSync(victim, index);
    for (const args of [
      ["list", "--all", "--json"],
      ["search", "--all", "--json", "wombat"],
      ["stats", "--all"],
    ]) {
      const { on } = await same(args);
      expect(lines(on.stderr)).toEqual([expect.stringMatching(/index not used: .* is a symbolic link/)]);
    }
    expect(readFileSync(victim, "utf8")).toBe("my notes\n");
    expect(statSync(victim).mode & 0o777).toBe(0o644);
    // Dangling: nothing made where it points.
    rmSync(victim);
    await same(["list", "--all", "--json"]);
    expect(existsSync(victim)).toBe(false);
    expect(lstatSync(index).isSymbolicLink()).toBe(true);
  });

  it("a link as the answers folder, or a user's files in it: the clean-up deletes only answers of ours", async () => {
    const { store, a } = makeStore();
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const { run, same } = cli(store, env);
    const index = indexPathFor(store, env)!;
    const mine = makeTmpDir();
    const theirs = ["notes.txt", "0123456789abcdef-0123456789abcdef0123456789abcdef", ".tmp-1-abc"];
    for (const f of theirs) writeFileSync(join(mine, f), "the user's own\n");
    const old = new Date(Date.now() - 3600_000);
    utimesSync(join(mine, ".tmp-1-abc"), old, old);
    mkdirSync(dirname(index), { recursive: true, mode: 0o700 });
    symlinkSync(mine, answersDirOf(index));
    for (let i = 0; i < 3; i++) {
      const { on } = await same(["list", "--all", "--json"]);
      expect(lines(on.stderr)).toEqual([expect.stringMatching(/index not used: .* is a symbolic link/)]);
    }
    expect(readdirSync(mine).sort()).toEqual([...theirs].sort());

    // The answers folder ours, with a user's files in it (an answer's name, not its header).
    unlinkSync(answersDirOf(index));
    mkdirSync(answersDirOf(index), { mode: 0o700 });
    for (const f of theirs) writeFileSync(join(answersDirOf(index), f), "the user's own\n");
    utimesSync(join(answersDirOf(index), ".tmp-1-abc"), old, old);
    for (let i = 0; i < 3; i++) await same(["list", "--all", "--json"]);
    // The answers were kept (and old ones of another build dropped) beside them.
    writeFileSync(a, said("a9", "user", "changed") + "\n", { flag: "a" });
    settle(a);
    for (let i = 0; i < 3; i++) await same(["list", "--all", "--json"]);
    expect(
      readdirSync(answersDirOf(index))
        .filter((f) => theirs.includes(f))
        .sort(),
    ).toEqual([...theirs].sort());
    expect(readdirSync(answersDirOf(index)).length).toBeGreaterThan(theirs.length);
    // And when the index is rebuilt.
    expect((await run(["index", "--rebuild"])).code).toBe(0);
    expect(readdirSync(answersDirOf(index)).sort()).toEqual([...theirs].sort());
  });

  it("makes its folders 0700 and its files 0600, and refuses a folder that is a link or another user's", async () => {
    const { store } = makeStore();
    const base = makeTmpDir();
    const env = { PI_SESSIONS_CACHE_DIR: join(base, "cache") };
    const { same } = cli(store, env);
    for (let i = 0; i < 3; i++) await same(["list", "--all", "--json"]);
    const index = indexPathFor(store, env)!;
    expect(statSync(env.PI_SESSIONS_CACHE_DIR).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(index)).mode & 0o777).toBe(0o700);
    expect(statSync(index).mode & 0o777).toBe(0o600);
    expect(statSync(answersDirOf(index)).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(answersDirOf(index)))
      expect(statSync(join(answersDirOf(index), f)).mode & 0o777).toBe(0o600);

    // The cache folder a link (to a folder anyone can read): not used.
    const elsewhere = makeTmpDir();
    chmodSync(elsewhere, 0o755);
    const linked = { PI_SESSIONS_CACHE_DIR: join(base, "linked") };
    symlinkSync(elsewhere, linked.PI_SESSIONS_CACHE_DIR);
    const { on } = await cli(store, linked).same(["list", "--all", "--json"]);
    expect(lines(on.stderr)).toEqual([expect.stringMatching(/index not used: .* is a symbolic link/)]);
    expect(readdirSync(elsewhere)).toEqual([]);

    // index/ a link.
    const inner = { PI_SESSIONS_CACHE_DIR: join(base, "inner") };
    mkdirSync(inner.PI_SESSIONS_CACHE_DIR, { mode: 0o700 });
    symlinkSync(elsewhere, join(inner.PI_SESSIONS_CACHE_DIR, "index"));
    const inside = await cli(store, inner).same(["search", "--all", "--json", "wombat"]);
    expect(lines(inside.on.stderr)).toEqual([expect.stringMatching(/index not used: .* is a symbolic link/)]);
    expect(readdirSync(elsewhere)).toEqual([]);

    if (process.getuid?.() === 0) {
      const other = { PI_SESSIONS_CACHE_DIR: join(base, "other") };
      mkdirSync(other.PI_SESSIONS_CACHE_DIR, { mode: 0o700 });
      chownSync(other.PI_SESSIONS_CACHE_DIR, 4242, 4242);
      const r = await cli(store, other).same(["list", "--all", "--json"]);
      expect(lines(r.on.stderr)).toEqual([expect.stringMatching(/index not used: .* belongs to another user/)]);
      expect(readdirSync(other.PI_SESSIONS_CACHE_DIR)).toEqual([]);
    }
  });

  it("ignores a relative XDG_CACHE_HOME (as the XDG spec says): nothing is written where the command runs; its folder is 0700", async () => {
    const { store } = makeStore();
    const home = makeTmpDir();
    const work = makeTmpDir();
    const was = process.cwd();
    process.chdir(work);
    try {
      const env = { HOME: home, XDG_CACHE_HOME: "cache" };
      // Made by an earlier build, as Node's compile cache makes it (0755): made the user's alone.
      mkdirSync(join(home, ".cache", "pi-sessions"), { recursive: true, mode: 0o755 });
      chmodSync(join(home, ".cache", "pi-sessions"), 0o755);
      for (let i = 0; i < 2; i++) await cli(store, env).same(["list", "--all", "--json"]);
      expect(readdirSync(work)).toEqual([]);
      expect(readdirSync(join(home, ".cache", "pi-sessions", "index")).length).toBeGreaterThan(0);
      expect(statSync(join(home, ".cache", "pi-sessions")).mode & 0o777).toBe(0o700);
    } finally {
      process.chdir(was);
    }
  });
});
