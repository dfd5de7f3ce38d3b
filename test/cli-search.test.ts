import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPathFor } from "../src/index/index-location.js";
import { formatBytes } from "../src/text/format.js";
import { runCli, runCliJson } from "./helpers/cli.js";
import { addProjectSession } from "./helpers/project-session.js";
import { cleanupTmp, copyStore, FIXTURES, makeTmpDir, settle } from "./helpers/tmp-store.js";

/*
 * `pi-sessions search` and `pi-sessions index` from the command line, on a copy of the
 * store pi 1.5.2 wrote, with the index in a temp cache folder.
 */

interface Hit {
  path: string;
  id: string;
  name: string | null;
  cwd: string;
  modified: string | null;
  score: number;
  snippets: { entryId: string | null; role: string; text: string; match: { start: number; length: number } | null }[];
}

let store: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  store = copyStore(join(FIXTURES, "pi-1.5.2", "agent", "sessions"));
  env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
});
afterAll(() => cleanupTmp());

const search = (args: string[], e = env) => runCli(["search", "--session-dir", store, ...args], { env: e });

describe("pi-sessions search", () => {
  it("finds sessions by what was said, with the hit marked in each snippet, and the same without the index", async () => {
    const { json } = await runCliJson<Hit[]>(["search", "--session-dir", store, "--all", "--json", "answer"], { env });
    expect(json.length).toBeGreaterThan(1);
    for (const h of json) {
      expect(Object.keys(h).sort()).toEqual(["cwd", "id", "modified", "name", "path", "score", "snippets"]);
      expect(h.snippets.length).toBeGreaterThan(0);
      for (const s of h.snippets) {
        expect(s.match).not.toBeNull();
        expect(s.text.slice(s.match!.start, s.match!.start + s.match!.length).toLowerCase()).toBe("answer");
        expect(typeof s.entryId).toBe("string");
      }
    }
    // Best first: the scores never rise down the list.
    for (let i = 1; i < json.length; i++) expect(json[i].score).toBeLessThanOrEqual(json[i - 1].score);
    const off = await runCliJson<Hit[]>(["search", "--session-dir", store, "--all", "--json", "answer"], {
      env: { ...env, PI_SESSIONS_INDEX: "0" },
    });
    expect(off.json).toEqual(json);
  });

  it("prints a readable list with «marks» in a pipe, --limit cuts it and says how many more", async () => {
    const r = await search(["--all", "--limit", "1", "answer"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/«answer»/i);
    expect(r.stdout.split("\n").filter((l) => l && !l.startsWith("      ")).length).toBe(1);
    expect(r.stderr).toMatch(/\d+ more \(--limit N\)/);
  });

  it("lists a session whose folder spells the word out, with no text hit, where it goes without the index", async () => {
    // B's first message holds the word; A holds it nowhere, but its folder spells it out
    // (letters at word starts) and a line of its conversation has every trigram the index
    // asks for ("key board"): checked, no hit, so A goes back to its own rank.
    const dir = makeTmpDir("pi-sessions-spelled-");
    const a = addProjectSession(dir, "/srv/key-board", "hello", { n: 1 });
    appendFileSync(
      a,
      JSON.stringify({
        type: "message",
        id: "u2",
        parentId: "a1",
        timestamp: "2026-11-21T07:00:05.000Z",
        message: { role: "user", content: "a key board here", timestamp: 2 },
      }) + "\n",
    );
    addProjectSession(dir, "/srv/other", "keyboard please", { n: 2 });
    const cache = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    await runCli(["index", "--session-dir", dir], { env: cache });
    const ask = (e: NodeJS.ProcessEnv, limit: number) =>
      runCliJson<Hit[]>(["search", "--session-dir", dir, "--all", "--json", "-n", String(limit), "keyboard"], {
        env: e,
      });
    // Each run another question (an answer asked again is printed as kept): the third ranks
    // from the rows kept by the second.
    for (let run = 0; run < 3; run++) {
      const want = (await ask({ ...cache, PI_SESSIONS_INDEX: "0" }, 10 + run)).json;
      expect(want.map((h) => h.cwd)).toEqual(["/srv/other", "/srv/key-board"]);
      expect({ run, got: (await ask(cache, 10 + run)).json }).toEqual({ run, got: want });
    }
  });

  it("exits 1 with 'no match' when nothing matches, and 2 on a bad query or no query", async () => {
    const none = await search(["--all", "zzzq-nothing-like-this"]);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe("");
    expect(none.stderr).toMatch(/no match/);
    expect((await search(["--all", "re:("])).code).toBe(2);
    expect((await search(["--all"])).code).toBe(2);
    expect((await search(["--all", "--limit", "0", "x"])).code).toBe(2);
  });

  it("sees what was appended since the index was built", async () => {
    await search(["--all", "answer"]);
    const { json: before } = await runCliJson<Hit[]>(
      ["search", "--session-dir", store, "--all", "--json", "platypus"],
      { env },
    );
    expect(before).toEqual([]);
    const target = JSON.parse(
      (await runCli(["list", "--session-dir", store, "--all", "--json"], { env })).stdout,
    )[0] as { path: string };
    const text = readFileSync(target.path, "utf8");
    if (!text.endsWith("\n")) appendFileSync(target.path, "\n");
    appendFileSync(
      target.path,
      JSON.stringify({
        type: "message",
        id: "plat0001",
        parentId: null,
        timestamp: "2026-11-24T12:00:00.000Z",
        message: { role: "user", content: "a platypus appeared", timestamp: 1 },
      }) + "\n",
    );
    const { json: after } = await runCliJson<Hit[]>(["search", "--session-dir", store, "--all", "--json", "platypus"], {
      env,
    });
    expect(after.map((h) => h.path)).toEqual([target.path]);
    expect(after[0].snippets[0]).toMatchObject({ entryId: "plat0001", role: "user" });
  });

  it("trusts what it kept of the index's coverage only while the index's text is as it was (the store unchanged)", async () => {
    const own = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    // A word deep in one session (not in its name or first message): only its text finds it.
    const listed = JSON.parse((await runCli(["list", "--session-dir", store, "--all", "--json"])).stdout) as Hit[];
    const [other, target] = listed;
    if (!readFileSync(target.path, "utf8").endsWith("\n")) appendFileSync(target.path, "\n");
    appendFileSync(
      target.path,
      JSON.stringify({
        type: "message",
        id: "quok0001",
        parentId: null,
        timestamp: "2026-11-24T12:00:00.000Z",
        message: { role: "user", content: "a quokka smiled", timestamp: 1 },
      }) + "\n",
    );
    await runCli(["index", "--session-dir", store], { env: own });
    const args = ["--all", "--json", "quokka"];
    const want = (await search(args, { ...own, PI_SESSIONS_INDEX: "0" })).stdout;
    expect((JSON.parse(want) as Hit[]).map((h) => h.path)).toEqual([target.path]);
    // Rows kept by the second run, with what the index covers of them. Each asks
    // with another --limit: a question asked again is answered as kept, searching nothing.
    for (let i = 0; i < 4; i++) expect((await search([...args, "-n", String(10 + i)], own)).stdout).toBe(want);
    // The index made again behind the kept coverage's back, its files numbered otherwise (as
    // a rebuild by another process may number them): the hit's file and another swap numbers.
    const best = (JSON.parse(want) as Hit[])[0].path;
    const db = new DatabaseSync(indexPathFor(store, own)!);
    const fidOf = (path: string) =>
      (db.prepare("SELECT fid FROM files WHERE path = ?").get(path) as { fid: number }).fid;
    const [a, b] = [fidOf(best), fidOf(other.path)];
    db.exec("BEGIN");
    for (const [from, to] of [
      [a, -7],
      [b, a],
      [-7, b],
    ]) {
      db.prepare("UPDATE files SET fid = ? WHERE fid = ?").run(to, from);
      db.prepare("UPDATE lines SET fid = ? WHERE fid = ?").run(to, from);
      db.prepare("UPDATE runs SET fid = ? WHERE fid = ?").run(to, from);
    }
    db.exec("COMMIT");
    db.close();
    expect(JSON.parse((await search([...args, "-n", "1"], own)).stdout)).toEqual(JSON.parse(want).slice(0, 1));
    expect((await search([...args, "-n", "20"], own)).stdout).toBe(want);
  });

  it("answers a --json question asked again on an unchanged store as it answered it, without the index; a changed store is searched", async () => {
    const own = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    const args = ["--all", "--json", "answer"];
    const want = (await search(args, own)).stdout;
    expect((JSON.parse(want) as Hit[]).length).toBeGreaterThan(0);
    // The second run on the same store keeps its answer.
    expect((await search(args, own)).stdout).toBe(want);
    // A garbage index: anything that opened it would rebuild it.
    const indexPath = indexPathFor(store, own)!;
    writeFileSync(indexPath, "not a database");
    expect((await search(args, own)).stdout).toBe(want);
    expect(readFileSync(indexPath, "utf8")).toBe("not a database");
    // Another question is searched (and the index rebuilt for it).
    const other = await search(["--all", "--json", "-n", "1", "answer"], own);
    expect(JSON.parse(other.stdout)).toEqual(JSON.parse(want).slice(0, 1));
    expect(readFileSync(indexPath).subarray(0, 15).toString()).toBe("SQLite format 3");
    // A session written to: the question is searched again and finds what was added.
    const last = (JSON.parse(want) as Hit[]).at(-1)!;
    if (!readFileSync(last.path, "utf8").endsWith("\n")) appendFileSync(last.path, "\n");
    appendFileSync(
      last.path,
      JSON.stringify({
        type: "session_info",
        id: "name0001",
        parentId: null,
        timestamp: "2026-11-24T12:00:00.000Z",
        name: "the answer to everything",
      }) + "\n",
    );
    const renamed = JSON.parse((await search(args, own)).stdout) as Hit[];
    expect(renamed.find((h) => h.path === last.path)?.name).toBe("the answer to everything");
    expect(renamed).toEqual(JSON.parse((await search(args, { ...own, PI_SESSIONS_INDEX: "0" })).stdout));
  });
});

describe("pi-sessions index", () => {
  it("--status says where it is, how big, how many sessions; --rebuild builds it again", async () => {
    // Files last written a while ago: a file read within a tick of its last write is rightly not kept.
    settle(store);
    const built = await runCli(["index", "--session-dir", store], { env });
    expect(built.code).toBe(0);
    expect(built.stderr).toMatch(/index of \d+ sessions up to date/);
    const { json } = await runCliJson<{
      path: string;
      exists: boolean;
      bytes: number;
      sessions: number;
      textIndexed: number;
    }>(["index", "--session-dir", store, "--status", "--json"], { env });
    expect(json.exists).toBe(true);
    expect(existsSync(json.path)).toBe(true);
    expect(json.path.startsWith(env.PI_SESSIONS_CACHE_DIR!)).toBe(true);
    expect(json.bytes).toBeGreaterThan(0);
    expect(json.sessions).toBeGreaterThan(5);
    expect(json.textIndexed).toBe(json.sessions);
    const text = await runCli(["index", "--session-dir", store, "--status"], { env });
    expect(text.stdout).toMatch(
      new RegExp(
        `^index +.+\\nsize +.+\\nsessions +${json.sessions}\\nindexed +conversations: all ${json.sessions} sessions; tool output: all ${json.sessions} sessions\\nupdated +just now\\n$`,
      ),
    );
    const rebuilt = await runCli(["index", "--session-dir", store, "--rebuild"], { env });
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stderr).toMatch(
      new RegExp(`\\(${json.sessions} new or changed, ${json.sessions} with tool output\\)`),
    );
    // The size said is what stays on disk: the write-ahead log folded in first, not counted on top.
    const said = /s, (.+)\n$/.exec(rebuilt.stderr)?.[1];
    expect(said).toBe(formatBytes(statSync(json.path).size));
  });

  it("--status says in plain words how much is indexed: nothing yet, none, some, all", async () => {
    const own = copyStore(join(FIXTURES, "pi-1.5.2", "agent", "sessions"));
    settle(own);
    const e = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    const indexed = async () => {
      const r = await runCli(["index", "--session-dir", own, "--status"], { env: e });
      expect(r.code).toBe(0);
      return r.stdout.split("\n").filter((l) => /^(sessions|indexed) /.test(l));
    };
    expect(await indexed()).toEqual(["indexed   nothing yet (pi-sessions index builds it)"]);
    // list keeps each session's facts, not its text.
    expect((await runCli(["list", "--session-dir", own, "-a", "-q"], { env: e })).code).toBe(0);
    const n = (
      await runCliJson<{ sessions: number }>(["index", "--session-dir", own, "--status", "--json"], { env: e })
    ).json.sessions;
    expect(n).toBeGreaterThan(5);
    expect(await indexed()).toEqual([`sessions  ${n}`, "indexed   conversations: none; tool output: none"]);
    // search indexes the conversations first; tool output only for --tools.
    expect((await runCli(["search", "--session-dir", own, "-a", "-q", "answer"], { env: e })).code).toBe(0);
    expect(await indexed()).toEqual([
      `sessions  ${n}`,
      `indexed   conversations: all ${n} sessions; tool output: none`,
    ]);
    expect((await runCli(["index", "--session-dir", own, "-q"], { env: e })).code).toBe(0);
    const all = `all ${n} sessions`;
    expect(await indexed()).toEqual([`sessions  ${n}`, `indexed   conversations: ${all}; tool output: ${all}`]);
    // Text appended since: that session's text is not all indexed any more.
    const { json } = await runCliJson<{ path: string }[]>(["list", "--session-dir", own, "-a", "--json"], { env: e });
    appendFileSync(json[0].path, readFileSync(json[0].path, "utf8").endsWith("\n") ? "" : "\n");
    appendFileSync(
      json[0].path,
      JSON.stringify({
        type: "custom",
        customType: "x",
        id: "late0001",
        parentId: null,
        timestamp: "2026-11-24T12:00:00.000Z",
      }) + "\n",
    );
    const some = `${n - 1} of ${n} sessions`;
    expect(await indexed()).toEqual([`sessions  ${n}`, `indexed   conversations: ${some}; tool output: ${some}`]);
  });

  it("refuses when turned off, and without a cache folder", async () => {
    const off = await runCli(["index", "--session-dir", store], { env: { ...env, PI_SESSIONS_INDEX: "0" } });
    expect(off.code).toBe(1);
    expect(off.stderr).toMatch(/turned off/);
    const none = await runCli(["index", "--session-dir", store], { env: {} });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no cache folder/);
  });
});
