// What `search` keeps of the index's coverage of its kept rows (src/cli/common/search-coverage.ts):
// read by a relaunch on an unchanged store and index instead of every file's text state, and
// never believed over the files or the index: after pi wrote (an append, a new, a deleted
// session, an mtime set back), the index made again, another process indexing, a search
// answers as it does without the index.
import { createHash } from "node:crypto";
import {
  appendFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { AnswerCache } from "../src/cli/common/answer-cache.js";
import { decodeSearchRows, encodeSearchRows } from "../src/cli/common/search-rows.js";
import { answersDirOf } from "../src/index/index-db.js";
import { indexPathFor } from "../src/index/index-location.js";
import { fieldTextOf, isFieldBytes } from "../src/search/field-text.js";
import { runCli } from "./helpers/cli.js";
import { addProjectSession } from "./helpers/project-session.js";
import { cleanupTmp, makeTmpDir, settle } from "./helpers/tmp-store.js";

afterEach(() => cleanupTmp());

/** A line of conversation holding `text`, deep in a session (neither its name nor its first message). */
const said = (id: string, text: string) =>
  JSON.stringify({
    type: "message",
    id,
    parentId: "a1",
    timestamp: "2026-11-24T12:00:00.000Z",
    message: { role: "user", content: text, timestamp: 1 },
  }) + "\n";

/** Six sessions in two projects, `quokka` deep in three of them; settled (not racy). */
function makeStore(): { store: string; paths: string[] } {
  const store = join(makeTmpDir("pi-sessions-coverage-"), "sessions");
  const paths = [1, 2, 3, 4, 5, 6].map((n) =>
    addProjectSession(store, n % 2 ? "/home/dev/one" : "/home/dev/two", `question ${n}`, {
      n,
      at: `2026-11-2${n}T07:00:00.000Z`,
    }),
  );
  appendFileSync(paths[1], said("q2", "a quokka smiled"));
  appendFileSync(paths[3], said("q4", "two quokka friends"));
  appendFileSync(paths[4], said("q5", "quokka quokka"));
  settle(store);
  return { store, paths };
}

/**
 * The store listed and indexed, `quokka` searched twice: the second run keeps the rows and,
 * with them, what the index covers of them. The answer, and the search to ask again (-n N).
 */
async function rowsKept() {
  const { store, paths } = makeStore();
  const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
  const search = (n: number) =>
    runCli(["search", "--session-dir", store, "--all", "--json", "-n", String(n), "quokka"], { env });
  // Its summary read again, then its text (`list` adds its row, `index` its lines).
  expect((await runCli(["list", "--all", "--json", "--session-dir", store], { env })).code).toBe(0);
  expect((await runCli(["index", "--session-dir", store], { env })).code).toBe(0);
  const want = (await search(10)).stdout;
  expect(JSON.parse(want)).toHaveLength(3);
  expect((await search(11)).stdout).toBe(want);
  return { store, paths, env, search, want };
}

describe("search's kept rows", () => {
  it("are read back as kept, their field text as bytes: what they say of a session is what the search ranks and prints", async () => {
    const { store, paths, env, search, want } = await rowsKept();
    const cache = new AnswerCache(indexPathFor(store, env)!);
    const kept = cache.latest("search rows")!;
    const rows = decodeSearchRows(kept.out)!;
    expect(isFieldBytes(rows.fieldText)).toBe(true);
    // The same rows written again but for one session without the word: its name, and its
    // first message in the field text (what ranks it), now hold it. Its conversation does not.
    const at = rows.rows.findIndex((r) => r.path === paths[0]);
    const plain = rows.rows.map((r, i) => ({
      path: r.path,
      id: r.id,
      name: i === at ? "Kept Name" : r.name,
      firstMessage: r.firstMessage,
      cwd: r.cwd,
      models: r.models,
      labelCount: r.labelCount,
      labels: r.labels,
      modified: r.modified,
      bytes: r.bytes,
      mtimeMs: r.mtimeMs,
      ctimeMs: r.ctimeMs,
    }));
    const fields = fieldTextOf(plain.map((r, i) => (i === at ? { ...r, firstMessage: "a kept quokka" } : r)));
    const files = rows.rows.map((r, i) => ({ path: r.path, bytes: r.bytes, mtimeMs: r.mtimeMs, ino: rows.inoAt(i) }));
    cache.put("search rows", kept.fingerprint, {
      out: encodeSearchRows(plain, files, fields, rows.stamp).out,
      err: "",
    });
    const found = JSON.parse((await search(13)).stdout) as Array<{ path: string; name: string | null }>;
    const before = (JSON.parse(want) as Array<{ path: string }>).map((f) => f.path);
    expect(found.map((f) => f.path).sort()).toEqual([...before, paths[0]].sort());
    expect(found.find((f) => f.path === paths[0])?.name).toBe("Kept Name");
  });
});

describe("search's kept rows, their first messages read as asked", () => {
  it("damaged or replaced where a printed row's first message is: the search is made again without them, the same answer", async () => {
    const { store, env } = await rowsKept();
    // The text output prints a session's title: its first message, when it has no name.
    const search = () => runCli(["search", "--session-dir", store, "--all", "quokka"], { env });
    const want = await search();
    expect(want.stdout).toContain("question 2");
    const dir = answersDirOf(indexPathFor(store, env)!);
    // The rows' file (answer-cache.ts names it by its key): their first messages come last.
    const name = createHash("sha256").update("search rows").digest("hex").slice(0, 32);
    const file = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith(`-${name}`))!,
    );
    const bytes = readFileSync(file);
    // Session 2 holds the word: its row is printed.
    const at = bytes.lastIndexOf("question 2");
    writeFileSync(file, Buffer.concat([bytes.subarray(0, at), Buffer.from("Question"), bytes.subarray(at + 8)]));
    expect(await search()).toEqual(want);
    // Kept again by that run: read as kept by the next.
    expect(readFileSync(file).includes("Question 2")).toBe(false);
    expect(await search()).toEqual(want);
  });
});

/** The kept rows' file (answer-cache.ts names it by its key; its header has "part"): their first messages come last. */
function rowsFile(store: string, env: NodeJS.ProcessEnv): string {
  const dir = answersDirOf(indexPathFor(store, env)!);
  const name = createHash("sha256").update("search rows").digest("hex").slice(0, 32);
  const file = join(
    dir,
    readdirSync(dir).find((f) => f.endsWith(`-${name}`))!,
  );
  expect(readFileSync(file).subarray(0, 4096).toString("latin1").split("\n")[0]).toContain('"part"');
  return file;
}

/** One byte of the rows' file changed where session `n`'s first message is ("question n"). */
function damageFirstMessage(file: string, n: number): void {
  const bytes = readFileSync(file);
  const at = bytes.lastIndexOf(`question ${n}`);
  expect(at).toBeGreaterThan(0);
  bytes[at] = "Q".charCodeAt(0);
  writeFileSync(file, bytes);
}

describe("search's kept rows found damaged as a query reads them", () => {
  it("the search is made again without them: stdout, stderr and exit code those of a clean run, notes said once", async () => {
    const { store } = makeStore();
    // A session the search leaves unindexed: a note on stderr before the search reads a first message.
    const env = {
      PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-"),
      PI_SESSIONS_INDEX_INLINE_BYTES: "0",
      PI_SESSIONS_INDEX_BACKGROUND: "0",
    };
    expect((await runCli(["index", "--session-dir", store], { env })).code).toBe(0);
    settle(addProjectSession(store, "/home/dev/one", "quokka, not indexed yet", { n: 7 }));
    // A pattern: every session's first message is read.
    const search = () => runCli(["search", "--session-dir", store, "--all", "re:quest.on.[24]"], { env });
    await search();
    await search();
    const clean = await search();
    expect(clean.stdout).toContain("question 2");
    expect(clean.stderr).toContain("not in the index yet");
    damageFirstMessage(rowsFile(store, env), 6);
    expect(await search()).toEqual(clean);
  });
});

describe("search's kept rows of the store before, found damaged as they are kept again", () => {
  it("the search is made again without them, the same answer, and the index it opened is closed", async () => {
    const { store, paths, env } = await rowsKept();
    Object.assign(env, { PI_SESSIONS_INDEX_BACKGROUND: "0" });
    const file = rowsFile(store, env);
    // Settled alone: the other rows stay true of their files.
    appendFileSync(paths[1], said("q2b", "one more quokka"));
    settle(paths[1]);
    damageFirstMessage(file, 6);
    const search = () => runCli(["search", "--session-dir", store, "--all", "--json", "quokka"], { env });
    // The files open in this process: a handle left open is one more after the runs.
    const open = () => (existsSync("/proc/self/fd") ? readdirSync("/proc/self/fd").length : 0);
    const before = open();
    // The first run reads the earlier rows; the second keeps them again (the store settled), reading every first message.
    const runs = [await search(), await search()];
    expect(open()).toBe(before);
    const clean = await runCli(["search", "--session-dir", store, "--all", "--json", "quokka"], {
      env: { ...env, PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") },
    });
    expect(JSON.parse(clean.stdout)).toHaveLength(3);
    expect(runs).toEqual([clean, clean]);
  });
});

describe("search's kept coverage", () => {
  it("is read by the run after the rows were kept, instead of the index's text states", async () => {
    const { store, paths, env, search, want } = await rowsKept();
    // Behind its back, the index says one file changed since it was indexed, its text
    // generation as it was: a search that reads the text states indexes that file again
    // (its text_size put right); one that believes what was kept leaves it.
    const db = new DatabaseSync(indexPathFor(store, env)!);
    const gen = (db.prepare("SELECT value FROM meta WHERE key = 'text_gen'").get() as { value: string }).value;
    db.prepare("UPDATE files SET text_size = text_size + 1 WHERE path = ?").run(paths[1]);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'text_gen'").run(gen);
    const sizeOf = () =>
      (db.prepare("SELECT text_size FROM files WHERE path = ?").get(paths[1]) as { text_size: number }).text_size;
    expect(sizeOf()).toBe(statSync(paths[1]).size + 1);
    expect((await search(12)).stdout).toBe(want);
    expect(sizeOf()).toBe(statSync(paths[1]).size + 1);
    db.close();
  });

  it("is not believed once another process made a file's text state stale: that file is indexed again", async () => {
    // The coverage kept with the rows says the index is caught up.
    const { store, paths, env, search, want } = await rowsKept();
    // Another process writes a file's text state (its size now not the file's: to be
    // indexed again); the index's text generation moves with it (index-db.ts's trigger).
    const db = new DatabaseSync(indexPathFor(store, env)!);
    const genOf = () => (db.prepare("SELECT value FROM meta WHERE key = 'text_gen'").get() as { value: string }).value;
    const gen = genOf();
    db.prepare("UPDATE files SET text_size = text_size + 1 WHERE path = ?").run(paths[1]);
    expect(genOf()).not.toBe(gen);
    const sizeOf = () =>
      (db.prepare("SELECT text_size FROM files WHERE path = ?").get(paths[1]) as { text_size: number }).text_size;
    // The kept "caught up" is of the index before: the search catches up, indexing that file again.
    expect((await search(12)).stdout).toBe(want);
    expect(sizeOf()).toBe(statSync(paths[1]).size);
    db.close();
  });

  it("is not believed once the store or the index changed: the answer is the files' own", async () => {
    const { store, paths } = makeStore();
    const env: NodeJS.ProcessEnv = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    let n = 20;
    /** The same question with the index and without it, three times (kept, then read back); another -n each. */
    const same = async (what: string) => {
      for (let i = 0; i < 3; i++) {
        const args = ["search", "--session-dir", store, "--all", "--json", "-n", String(n++), "quokka"];
        const off = await runCli(args, { env: { ...env, PI_SESSIONS_INDEX: "0" } });
        const on = await runCli(args, { env });
        expect({ what, i, stdout: on.stdout, code: on.code }).toEqual({ what, i, stdout: off.stdout, code: off.code });
      }
    };
    // Its summary read again, then its text (`list` adds its row, `index` its lines).
    expect((await runCli(["list", "--all", "--json", "--session-dir", store], { env })).code).toBe(0);
    expect((await runCli(["index", "--session-dir", store], { env })).code).toBe(0);
    await same("indexed");
    appendFileSync(paths[0], said("q1", "a quokka appended"));
    // Only the files written settled: the others' identities (their ctime) stay as indexed.
    settle(paths[0]);
    await same("appended to");
    settle(addProjectSession(store, "/home/dev/two", "a new quokka question", { n: 7 }));
    await same("a new session");
    rmSync(paths[4]);
    await same("a deleted session");
    const back = new Date(Date.now() - 3_600_000);
    utimesSync(paths[3], back, back);
    await same("an mtime set back");
    expect((await runCli(["index", "--rebuild", "--session-dir", store], { env })).code).toBe(0);
    await same("the index made again");
    // A new session the search leaves to another process to index (it reads it meanwhile),
    // then that process indexes it: the index changed, the store did not.
    settle(addProjectSession(store, "/home/dev/one", "quokka, not indexed yet", { n: 8 }));
    env.PI_SESSIONS_INDEX_INLINE_BYTES = "0";
    env.PI_SESSIONS_INDEX_BACKGROUND = "0";
    await same("a session left to another process");
    expect((await runCli(["index", "--session-dir", store], { env })).code).toBe(0);
    await same("another process indexing");
    // Another process numbers a file holding the word anew (as forgetting and indexing it
    // again would), its lines with it: what was kept names the old number.
    const db = new DatabaseSync(indexPathFor(store, env)!);
    const { fid } = db.prepare("SELECT fid FROM files WHERE path = ?").get(paths[1]) as { fid: number };
    const { top } = db.prepare("SELECT max(fid) AS top FROM files").get() as { top: number };
    db.prepare("UPDATE files SET fid = ? WHERE fid = ?").run(top + 10, fid);
    db.prepare("UPDATE lines SET fid = ? WHERE fid = ?").run(top + 10, fid);
    db.prepare("UPDATE runs SET fid = ? WHERE fid = ?").run(top + 10, fid);
    db.close();
    await same("another process numbering anew");
  });
});
