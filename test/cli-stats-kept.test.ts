// `stats` relaunched on an unchanged store prints the answer it kept (issue 35: a relaunch
// costs the store's stat, not 50,000 sessions' usage read and added up again), and follows
// the files as soon as one changes: appended to, touched, added, deleted.
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { answersDirOf } from "../src/index/index-db.js";
import { indexPathFor } from "../src/index/index-location.js";
import { AnswerCache } from "../src/cli/common/answer-cache.js";
import { summaryContext } from "../src/index/summary-cache.js";
import { statsKey } from "../src/cli/commands/stats.js";
import { decodeUsageColumns, encodeUsageColumns } from "../src/usage/usage-columns.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, makeTmpDir, REPO, settle } from "./helpers/tmp-store.js";

const CLI = join(REPO, "dist", "bundle", "cli.js");

afterEach(() => cleanupTmp());

const T = "2026-11-20T10:00:00.000Z";
const reply = (id: string, model: string, cost: number) =>
  JSON.stringify({
    type: "message",
    id,
    parentId: "u",
    timestamp: T,
    message: {
      role: "assistant",
      content: [],
      model,
      usage: { input: 1000, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 1010, cost: { total: cost } },
    },
  }) + "\n";
const session = (id: string, cwd: string, cost: number) =>
  [
    JSON.stringify({ type: "session", version: 3, id, timestamp: T, cwd }),
    JSON.stringify({ type: "message", id: "u", parentId: null, timestamp: T, message: { role: "user", content: "x" } }),
  ].join("\n") +
  "\n" +
  reply("r", "model-a", cost);

describe("stats relaunched", () => {
  it("keeps its answer for an unchanged store, and says what the files say once one changes", async () => {
    const store = join(makeTmpDir("pi-sessions-stats-kept-"), "sessions");
    const folder = join(store, "--home-dev-proj--");
    mkdirSync(folder, { recursive: true });
    const a = join(folder, "2026-11-20T10-00-00-000Z_a.jsonl");
    const b = join(folder, "2026-11-20T10-00-01-000Z_b.jsonl");
    writeFileSync(a, session("0196e0a2-8c1d-7b3e-9f40-00000000000a", "/home/dev/proj", 1.25));
    writeFileSync(b, session("0196e0a2-8c1d-7b3e-9f40-00000000000b", "/home/dev/proj", 2.5));
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const run = async (args: string[], on = true) => {
      const r = await runCli([...args, "--session-dir", store], { env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" } });
      return { code: r.code, stdout: r.stdout, stderr: r.stderr };
    };
    expect((await run(["index"])).code).toBe(0);
    const asks = [
      ["stats", "--all"],
      ["stats", "--all", "--json"],
      ["stats", "--all", "--by", "model"],
    ];
    /** Each question with the index as without it, three times over (the second run keeps, the third is served). */
    const same = async () => {
      const said: string[] = [];
      for (const args of asks) {
        const off = await run(args, false);
        for (let i = 0; i < 3; i++) {
          const on = await run(args);
          expect({ args, i, on }).toEqual({ args, i, on: { ...off, stderr: "" } });
        }
        said.push(off.stdout);
      }
      return said;
    };

    const [text, json] = await same();
    expect(text).toContain("$3.75");
    expect(JSON.parse(json)).toMatchObject({ cost: 3.75, sessionsWithUsage: 2 });
    // Kept: one answer per question, beside the index.
    const dir = answersDirOf(indexPathFor(store, env)!);
    const kept = readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8"));
    expect(kept.filter((f) => f.includes("Usage by day")).length).toBe(1);
    expect(kept.filter((f) => f.includes("Usage by model")).length).toBe(1);
    expect(kept.filter((f) => f.includes('"sessionsWithUsage": 2')).length).toBe(1);

    // pi appended a reply.
    appendFileSync(a, reply("r2", "model-b", 4));
    settle(a);
    const [, appended, byModel] = await same();
    expect(JSON.parse(appended)).toMatchObject({ cost: 7.75 });
    expect(byModel).toContain("model-b");
    // Only touched: the same totals, still as the files say.
    utimesSync(b, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    expect(JSON.parse((await same())[1])).toMatchObject({ cost: 7.75 });
    // A session added, then one deleted.
    const c = join(folder, "2026-11-20T10-00-02-000Z_c.jsonl");
    writeFileSync(c, session("0196e0a2-8c1d-7b3e-9f40-00000000000c", "/home/dev/proj", 10));
    settle(c);
    expect(JSON.parse((await same())[1])).toMatchObject({ cost: 17.75, sessionsWithUsage: 3 });
    rmSync(a);
    expect(JSON.parse((await same())[1])).toMatchObject({ cost: 12.5, sessionsWithUsage: 2 });
  });

  it("adds a question not asked before up from the usage columns it kept, as the files say", async () => {
    const store = join(makeTmpDir("pi-sessions-stats-columns-"), "sessions");
    const folder = join(store, "--home-dev-proj--");
    const other = join(store, "--home-dev-other--");
    mkdirSync(folder, { recursive: true });
    mkdirSync(other, { recursive: true });
    const day = (d: string) => (text: string) => text.replaceAll(T, `2026-11-${d}T10:00:00.000Z`);
    writeFileSync(
      join(folder, "2026-11-20T10-00-00-000Z_a.jsonl"),
      session("0196e0a2-8c1d-7b3e-9f40-00000000000a", "/home/dev/proj", 1.25),
    );
    writeFileSync(
      join(folder, "2026-11-21T10-00-00-000Z_b.jsonl"),
      day("21")(session("0196e0a2-8c1d-7b3e-9f40-00000000000b", "/home/dev/proj", 2.5)),
    );
    writeFileSync(
      join(other, "2026-11-22T10-00-00-000Z_c.jsonl"),
      day("22")(session("0196e0a2-8c1d-7b3e-9f40-00000000000c", "/home/dev/other", 4)),
    );
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const run = async (args: string[], on = true) => {
      const r = await runCli([...args, "--session-dir", store], {
        env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" },
        cwd: "/home/dev/proj",
      });
      return { code: r.code, stdout: r.stdout, stderr: r.stderr };
    };
    expect((await run(["index"])).code).toBe(0);
    // Two runs of one question: the second keeps the store's usage columns.
    for (let i = 0; i < 2; i++) expect((await run(["stats", "--all"])).code).toBe(0);
    const key = JSON.stringify(["stats-usage", summaryContext()]);
    const cache = new AnswerCache(indexPathFor(store, env)!);
    const kept = cache.latest(key);
    expect(kept && decodeUsageColumns(kept.out)?.sessions).toBe(3);
    // Questions not asked before say what the files say, with the index as without it.
    const asks = [
      ["stats", "--all", "--since", "2026-11-21"],
      ["stats", "--all", "--by", "folder", "--json", "--since", "2026-11-21"],
      ["stats", "--by", "model", "--json"],
      ["stats", "--cwd", "/home/dev/other", "--since", "2026-11-22"],
    ];
    for (const args of asks) expect(await run(args)).toEqual({ ...(await run(args, false)), stderr: "" });
    // They are taken from those columns: columns kept with other figures for this very store are what is said.
    const twice = decodeUsageColumns(kept!.out)!;
    const doubled = [...twice.rows()].map((r, i) => ({
      path: join(i < 2 ? folder : other, `${i}.jsonl`),
      cwd: r.cwd,
      usage: r.usage?.map((s) => ({ ...s, cost: s.cost * 2 })),
    }));
    cache.put(key, kept!.fingerprint, { out: encodeUsageColumns(doubled), err: "" });
    expect(JSON.parse((await run(["stats", "--all", "--json", "--since", "2026-11-20"])).stdout)).toMatchObject({
      cost: 15.5,
    });
    // Once a file changes they are not: the files are read again.
    appendFileSync(join(folder, "2026-11-20T10-00-00-000Z_a.jsonl"), reply("r2", "model-b", 1));
    settle(store);
    expect(JSON.parse((await run(["stats", "--all", "--json", "--since", "2026-11-19"])).stdout)).toMatchObject({
      cost: 8.75,
    });
  });

  it("keeps its usage columns while a file discovery could not read stays so (a read failing later: cli-kept-read-failure)", async () => {
    const store = join(makeTmpDir("pi-sessions-stats-unreadable-"), "sessions");
    const folder = join(store, "--home-dev-proj--");
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "2026-11-20T10-00-00-000Z_a.jsonl"),
      session("0196e0a2-8c1d-7b3e-9f40-00000000000a", "/home/dev/proj", 1.25),
    );
    // A link to nothing: discovery cannot stat it (as root, where modes do not stop a read).
    symlinkSync(join(folder, "gone"), join(folder, "2026-11-20T10-00-01-000Z_b.jsonl"));
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    expect((await runCli(["index", "--session-dir", store], { env })).code).toBe(0);
    for (let i = 0; i < 3; i++) {
      const r = await runCli(["stats", "--all", "--json", "--session-dir", store], { env });
      expect(JSON.parse(r.stdout)).toMatchObject({ cost: 1.25 });
    }
    const cache = new AnswerCache(indexPathFor(store, env)!);
    expect(cache.latest(JSON.stringify(["stats-usage", summaryContext()]))).toBeDefined();
  });

  it("as text, is not served by a Node whose Unicode rules differ (its cells are measured, padded and cut by them)", async () => {
    const store = join(makeTmpDir("pi-sessions-stats-rules-"), "sessions");
    const folder = join(store, "--home-dev-proj--");
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "2026-11-20T10-00-00-000Z_a.jsonl"),
      session("0196e0a2-8c1d-7b3e-9f40-00000000000a", "/home/dev/proj", 1.25),
    );
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const run = async (on = true) => {
      const r = await runCli(["stats", "--all", "--session-dir", store], {
        env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" },
      });
      return { code: r.code, stdout: r.stdout, stderr: r.stderr };
    };
    for (let i = 0; i < 2; i++) expect((await run()).code).toBe(0);
    // The kept answer marked, to tell it from the files' (it is served as kept).
    const cache = new AnswerCache(indexPathFor(store, env)!);
    const key = statsKey("day", undefined, "", undefined);
    const kept = cache.latest(key)!;
    const text = Buffer.from(kept.out).toString().replace("Usage by day", "KEPT by day");
    cache.put(key, kept.fingerprint, { out: Buffer.from(text), err: kept.err });
    expect((await run()).stdout).toContain("KEPT by day");
    const real = Object.getOwnPropertyDescriptor(process.versions, "unicode")!;
    try {
      Object.defineProperty(process.versions, "unicode", { ...real, value: "1.1" });
      const said = await run();
      expect(said.stdout).toContain("Usage by day");
      expect(said).toEqual({ ...(await run(false)), stderr: "" });
    } finally {
      Object.defineProperty(process.versions, "unicode", real);
    }
  });

  it("is not served under another time zone: usage is by local day", async () => {
    const store = join(makeTmpDir("pi-sessions-stats-zone-"), "sessions");
    const folder = join(store, "--home-dev-proj--");
    mkdirSync(folder, { recursive: true });
    // 23:30 UTC is the 20th in UTC and the 21st in Tokyo.
    const late = session("0196e0a2-8c1d-7b3e-9f40-00000000000d", "/home/dev/proj", 1).replaceAll(
      T,
      "2026-11-20T23:30:00.000Z",
    );
    writeFileSync(join(folder, "2026-11-20T23-30-00-000Z_d.jsonl"), late);
    settle(store);
    const cache = makeTmpDir();
    // The built program in a process of its own: the zone is the process's (TZ at its start).
    const day = async (TZ: string) => {
      const r = spawnSync(process.execPath, [CLI, "stats", "--all", "--json", "--session-dir", store], {
        env: { PATH: process.env.PATH, PI_SESSIONS_CACHE_DIR: cache, TZ },
        encoding: "utf8",
      });
      expect(r.status, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { groups: Array<{ key: string }> }).groups.map((x) => x.key);
    };
    for (let i = 0; i < 3; i++) expect(await day("UTC")).toEqual(["2026-11-20"]);
    expect(await day("Asia/Tokyo")).toEqual(["2026-11-21"]);
    expect(await day("UTC")).toEqual(["2026-11-20"]);
  });
});
