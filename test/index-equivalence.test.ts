import { execFileSync } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchWithIndex } from "../src/index/index-search.js";
import { openStoreIndex, type StoreIndex } from "../src/index/store-index.js";
import { indexStaleText } from "../src/index/text-index.js";
import type { SessionSummary } from "../src/model/types.js";
import { scanStore, type ScanResult } from "../src/scan/scan-store.js";
import { discoverFiles } from "../src/store/discover.js";
import { searchStore } from "../src/search/fulltext.js";
import { parseQuery } from "../src/search/query.js";
import { cleanupTmp, copyStore, FIXTURES, makeTmpDir, PI_STORE, REPO, settle } from "./helpers/tmp-store.js";
import { runCli } from "./helpers/cli.js";
import { userLine } from "./helpers/session-file.js";

/*
 * The index is a cache: every answer through it equals the answer without it. Checked on
 * the store pi 0.73.1 wrote, the one pi 1.5.2 wrote, and a generated store with damaged
 * files; for listing (summaries and skipped files) and for full-text search (which
 * sessions, and the snippet each shows), before and after files change.
 */

const PI15_STORE = join(FIXTURES, "pi-1.5.2", "agent", "sessions");

function generatedStore(): string {
  const out = makeTmpDir("pi-sessions-gen-");
  execFileSync(process.execPath, [
    join(REPO, "bench", "gen-store.mjs"),
    "--out",
    out,
    "--sessions",
    "40",
    "--projects",
    "4",
    "--avg-kb",
    "8",
    "--faults",
    "1",
    "--seed",
    "7",
  ]);
  return join(out, "sessions");
}

const QUERIES = [
  "keyboard",
  "naive schema",
  "Grüße",
  "café",
  '"refactor auth"',
  "re:key.?oard",
  "Keyboard",
  "'tree",
  "ok",
  "session store",
  "the",
  "hello",
  "model:claude keyboard",
  "函数",
  "🚀 deploy",
  "zzzz-not-there",
  // The last line of a file with no trailing newline (pi 1.5.2's fixture S9a).
  '"s9a answer"',
];

/** Path → snippet of a full-text search, one way or the other. */
async function fullText(
  paths: SessionSummary[],
  query: string,
  includeTools: boolean,
  index?: StoreIndex,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const q = parseQuery(query);
  if (index) {
    await searchWithIndex(index.db, paths, q, { includeTools, onMatch: (h) => (out[h.path] = h.snippet) });
  } else {
    await searchStore(
      paths.map((s) => s.path),
      q,
      { includeTools, onMatch: (p, snip) => (out[p] = snip) },
    );
  }
  return out;
}

/** A scan's result in a stable order, lineage and all. */
function normal(r: ScanResult) {
  return {
    sessions: [...r.sessions].sort((a, b) => (a.path < b.path ? -1 : 1)),
    diagnostics: [...r.diagnostics].sort((a, b) => (a.path < b.path ? -1 : 1)),
  };
}

/** How many answers (`list --json`'s, search's rows and coverage) the index under `cacheDir` keeps. */
function keptAnswers(cacheDir: string, kind: "search" | "other" = "other"): number {
  const dir = readdirSync(join(cacheDir, "index")).find((f) => f.endsWith("-answers"));
  if (!dir) return 0;
  // Not the marks of a store seen once (a header and no output): the answers themselves.
  // A search --json answer starts with its question's id (search-answer.ts).
  return readdirSync(join(cacheDir, "index", dir)).filter((f) => {
    const bytes = readFileSync(join(cacheDir, "index", dir, f));
    const eol = bytes.indexOf(0x0a);
    if (eol >= bytes.length - 1) return false;
    const search = /^[0-9a-f]{64}\n/.test(bytes.toString("latin1", eol + 1, eol + 66));
    return kind === "search" ? search : !search;
  }).length;
}

function openIndex(store: string): StoreIndex {
  const dir = makeTmpDir("pi-sessions-index-");
  const index = openStoreIndex(
    store,
    (m) => {
      throw new Error(m);
    },
    { path: join(dir, "index.sqlite") },
  );
  if (!index) throw new Error("no index");
  return index;
}

describe.each([
  ["pi 0.73.1's store", () => copyStore(PI_STORE)],
  ["pi 1.5.2's store", () => copyStore(PI15_STORE)],
  ["a generated store with damaged files", generatedStore],
])("the index gives the same answers as reading %s", (_name, makeStore) => {
  let store: string;
  let index: StoreIndex;
  beforeAll(() => {
    store = makeStore();
    // Files last written a while ago: one read within a tick of its write is rightly read again next run.
    settle(store);
    index = openIndex(store);
  });
  afterAll(() => {
    index.close();
    cleanupTmp();
  });

  it("lists the same sessions and skipped files: first run (filling it), second run (from it)", async () => {
    const plain = normal(await scanStore(store));
    const filling = normal(await scanStore(store, {}, { cache: index.scans }));
    const fromIndex = normal(await scanStore(store, {}, { cache: index.scans }));
    expect(filling).toEqual(plain);
    expect(fromIndex).toEqual(plain);
    // A file deleted: gone from the listing and from the index.
    const victim = plain.sessions[plain.sessions.length - 1].path;
    rmSync(victim);
    const after = normal(await scanStore(store, {}, { cache: index.scans }));
    expect(after).toEqual(normal(await scanStore(store)));
    expect(index.db.q("SELECT count(*) AS n FROM files WHERE path = ?").get(victim)).toEqual({ n: 0 });
    plain.sessions.pop();
    // The second run read nothing: every file was answered by the index.
    const looked = index.scans.lookup((await discoverFiles(store)).files);
    expect(looked.size).toBe(plain.sessions.length + plain.diagnostics.filter((d) => d.kind !== "unreadable").length);
  });

  it("prints the same `list --json` text: filling it, from it (the kept elements), and after files change", async () => {
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    const list = async (on: boolean, sort = "recent") => {
      const r = await runCli(["list", "--all", "--json", "--sort", sort, "--session-dir", store], {
        env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" },
      });
      return { code: r.code, stdout: r.stdout, stderr: r.stderr };
    };
    const plain = await list(false);
    expect(JSON.parse(plain.stdout).length).toBeGreaterThan(0);
    expect(await list(true)).toEqual(plain);
    expect(keptAnswers(env.PI_SESSIONS_CACHE_DIR)).toBe(0);
    // The second run finds the store as the first did: it keeps its answer; the third is that
    // kept answer, the same bytes.
    expect(await list(true)).toEqual(plain);
    expect(keptAnswers(env.PI_SESSIONS_CACHE_DIR)).toBe(1);
    expect(await list(true)).toEqual(plain);
    expect(await list(true, "name")).toEqual(await list(false, "name"));
    expect(await list(true, "name")).toEqual(await list(false, "name"));
    expect(keptAnswers(env.PI_SESSIONS_CACHE_DIR)).toBe(2);
    expect(await list(true, "name")).toEqual(await list(false, "name"));
    // A fork's parent gone (its lineage changes while the fork's file does not), and a file appended to.
    const { sessions } = await scanStore(store);
    const fork = sessions.find((s) => s.lineage.status === "resolved");
    if (fork?.lineage.status === "resolved") rmSync(fork.lineage.path);
    const grown = sessions.find((s) => s.path !== fork?.path && s.warnings.length === 0);
    // Every store here has a clean session to grow (a fork to orphan only where pi wrote one).
    expect(grown).toBeDefined();
    appendFileSync(grown!.path, JSON.stringify({ type: "session_info", name: "grown ✅\u009b" }) + "\n");
    const after = await list(false);
    expect(after).not.toEqual(plain);
    expect(await list(true)).toEqual(after);
    expect(await list(true)).toEqual(after);
  });

  it("prints the same text `list` for every sort: filling it, from its columns, and after files change", async () => {
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    const list = async (on: boolean, sort: string) => {
      const r = await runCli(["list", "--all", "--sort", sort, "--session-dir", store], {
        env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" },
      });
      // The age column says how long ago from now: not what is compared.
      return { code: r.code, stdout: r.stdout.replace(/^\S+/gm, ""), stderr: r.stderr };
    };
    const sorts = ["recent", "created", "name", "messages", "size"];
    for (const sort of sorts) {
      const plain = await list(false, sort);
      expect(plain.stdout.split("\n").length).toBeGreaterThan(2);
      expect(await list(true, sort), sort).toEqual(plain);
      expect(await list(true, sort), sort).toEqual(plain);
    }
    const { sessions } = await scanStore(store);
    const grown = sessions.find((s) => s.warnings.length === 0)!;
    appendFileSync(grown.path, JSON.stringify({ type: "session_info", name: "grown ✅\u009b" }) + "\n");
    for (const sort of sorts) expect(await list(true, sort), sort).toEqual(await list(false, sort));
  });

  it("prints the same `stats` by day, folder and model: filling it, from its columns, and after files change", async () => {
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    const stats = async (on: boolean, by: string, json = true) => {
      const r = await runCli(["stats", "--all", ...(json ? ["--json"] : []), "--by", by, "--session-dir", store], {
        env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" },
      });
      return { code: r.code, stdout: r.stdout, stderr: r.stderr };
    };
    const bys = ["day", "folder", "model"];
    for (const by of bys) {
      const plain = await stats(false, by);
      expect(JSON.parse(plain.stdout).sessions).toBeGreaterThan(0);
      expect(await stats(true, by), by).toEqual(plain);
      expect(await stats(true, by), by).toEqual(plain);
    }
    const { sessions } = await scanStore(store);
    const grown = sessions.find((s) => s.warnings.length === 0)!;
    appendFileSync(grown.path, JSON.stringify({ type: "session_info", name: "grown" }) + "\n");
    // Summed in another order (the changed file last), dollars may differ in their last bit:
    // the figures as printed are the same.
    for (const by of bys) expect(await stats(true, by, false), by).toEqual(await stats(false, by, false));
  });

  it("prints the same `search` results with the index (checking only the best) as without it", async () => {
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    const search = async (on: boolean, args: string[]) => {
      const r = await runCli(["search", "--all", ...args, "--session-dir", store], {
        env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" },
      });
      return { code: r.code, stdout: r.stdout, stderr: r.stderr };
    };
    // The index filled (summaries, then text) by a first run.
    await runCli(["index", "--session-dir", store], { env });
    let nonEmpty = 0;
    for (const q of [...QUERIES, "s", "answer", "hello keyboard", "cwd:app keyboard"])
      for (const extra of [["--json"], ["--json", "-n", "1"], ["--json", "-n", "3", "--tools"], ["-q", "-n", "2"]]) {
        const want = await search(false, [...extra, q]);
        expect({ q, extra, got: await search(true, [...extra, q]) }).toEqual({ q, extra, got: want });
        if (want.code === 0 && want.stdout.length > 4) nonEmpty++;
      }
    expect(nonEmpty).toBeGreaterThan(4);
    // Most of those runs read the store's rows as kept (the store did not change): kept they
    // are, what proves a typo beside them, and what the index covers of them.
    expect(keptAnswers(env.PI_SESSIONS_CACHE_DIR)).toBe(3);
    // And some of the --json answers (each asked once here: none was served).
    expect(keptAnswers(env.PI_SESSIONS_CACHE_DIR, "search")).toBeGreaterThan(0);
    // A session appended to: the kept rows are of another store now. Each run, the one that
    // sees it first, the one that keeps its rows, and the one that reads them, is right.
    const { sessions } = await scanStore(store);
    const grown = sessions.find((s) => s.warnings.length === 0 && readFileSync(s.path).at(-1) === 0x0a)!;
    appendFileSync(
      grown.path,
      JSON.stringify({
        type: "message",
        id: "wmb1",
        parentId: null,
        timestamp: "2026-11-24T10:00:00.000Z",
        message: { role: "user", content: "wombat keyboard", timestamp: 1 },
      }) + "\n",
    );
    for (let run = 0; run < 3; run++)
      for (const args of [
        ["--json", "wombat"],
        ["-q", "keyboard"],
        ["--json", "-n", "2", "keyboard"],
      ]) {
        const got = await search(true, args);
        expect({ run, args, got }).toEqual({ run, args, got: await search(false, args) });
      }
    expect(JSON.parse((await search(true, ["--json", "wombat"])).stdout)[0].path).toBe(grown.path);
  });

  it("finds the same sessions with the same snippets, with and without tool output", async () => {
    const { sessions } = await scanStore(store, {}, { cache: index.scans });
    // The conversation indexed, tool texts not yet: searches with them read the files.
    await indexStaleText(index.db, undefined, { tools: false });
    for (const q of ["keyboard", "answer", "re:a.swer", "naive schema"])
      for (const tools of [false, true])
        expect({ q, tools, got: await fullText(sessions, q, tools, index) }).toEqual({
          q,
          tools,
          got: await fullText(sessions, q, tools),
        });
    await indexStaleText(index.db);
    let nonEmpty = 0;
    // And words of this store's own first messages, alone and in pairs: queries that find something.
    const words = [
      ...new Set(sessions.flatMap((s) => s.firstMessage.split(/\s+/)).filter((w) => /^\p{L}{3,}$/u.test(w))),
    ].slice(0, 12);
    const own = [...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)];
    for (const q of [...QUERIES, ...own]) {
      for (const tools of [false, true]) {
        const want = await fullText(sessions, q, tools);
        const got = await fullText(sessions, q, tools, index);
        expect({ q, tools, got }).toEqual({ q, tools, got: want });
        if (Object.keys(want).length) nonEmpty++;
      }
    }
    // The queries are not all empty-handed (a comparison of nothing proves nothing).
    expect(nonEmpty).toBeGreaterThan(4);
  });

  it("stays right while files change: an append, a replaced file, a file rewritten in place", async () => {
    const { sessions } = await scanStore(store, {}, { cache: index.scans });
    await indexStaleText(index.db);
    // Files that end cleanly (an append to a torn last line joins it, and is found by neither).
    const endsClean = (p: string) => readFileSync(p).at(-1) === 0x0a;
    const [a, b, c] = sessions.filter((s) => s.entryCount > 1 && s.warnings.length === 0 && endsClean(s.path));
    // An append, seen before and after the index catches up.
    appendFileSync(a.path, userLine("app1", "appended quokka keyboard"));
    // A file replaced by another (a new inode) holding a new word.
    writeFileSync(b.path + ".new", readFileSync(b.path, "utf8") + userLine("rep1", "replaced quokka wombat"));
    renameSync(b.path + ".new", b.path);
    // Rewritten in place (same inode, pi's migration does this): its first bytes change.
    const old = readFileSync(c.path, "utf8");
    writeFileSync(c.path, old.replace('"type":"session"', '"type": "session"') + userLine("rw1", "rewritten quokka"));

    for (const stage of ["stale index", "index caught up"]) {
      const now = await scanStore(store, {}, { cache: index.scans });
      if (stage === "index caught up") await indexStaleText(index.db);
      for (const q of ["quokka", "quokka keyboard", "wombat", "keyboard", "re:quok+a"]) {
        const want = await fullText(now.sessions, q, false);
        const got = await fullText(now.sessions, q, false, index);
        expect({ stage, q, got }).toEqual({ stage, q, got: want });
      }
      expect(Object.keys(await fullText(now.sessions, "quokka", false, index)).sort()).toEqual(
        [a.path, b.path, c.path].sort(),
      );
    }
  });
});
