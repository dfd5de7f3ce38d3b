// `pi-sessions stats`: its totals against `show --json` per session and against pi 1.5.2's
// own /session totals (fixtures/pi-1.5.2/expected.json), its groupings, its text output.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { displayWidth } from "../src/text/sanitize.js";
import { runCli, runCliJson } from "./helpers/cli.js";
import { cleanupTmp, FIXTURES, makeTmpDir, PI_STORE } from "./helpers/tmp-store.js";

const SRC = join(FIXTURES, "pi-1.5.2");

interface Amount {
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  cost: number;
}
interface Stats extends Amount {
  by: string;
  since: string | null;
  sessions: number;
  sessionsWithUsage: number;
  groups: (Amount & { key: string; sessions: number; models: (Amount & { model: string })[] })[];
  models: (Amount & { model: string })[];
}

let root: string;
const env = () => ({ PI_CODING_AGENT_DIR: join(root, "agent"), HOME: root });

beforeAll(() => {
  root = makeTmpDir("pi-sessions-stats-");
  cpSync(SRC, root, { recursive: true });
});
afterAll(cleanupTmp);

function sumAmounts(xs: Amount[]): Amount {
  const t = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  let cost = 0;
  for (const x of xs) {
    for (const k of Object.keys(t) as (keyof typeof t)[]) t[k] += x.tokens[k];
    cost += x.cost;
  }
  return { tokens: t, cost };
}

/** Equal tokens, and dollars equal but for the rounding of each to the millionth (half of one each). */
function expectSame(a: Amount, b: Amount, rounded = 2) {
  expect(a.tokens).toEqual(b.tokens);
  expect(Math.abs(a.cost - b.cost)).toBeLessThanOrEqual(rounded * 5e-7 + 1e-12);
}

describe("stats --json", () => {
  it("totals what show --json says of each listed session, and what pi 1.5.2's /session says", async () => {
    const { json: stats } = await runCliJson<Stats>(["stats", "--all", "--json"], { env: env() });
    const { json: listed } = await runCliJson<{ path: string }[]>(["list", "--all", "--json"], { env: env() });
    expect(stats.sessions).toBe(listed.length);
    const shown: Amount[] = [];
    for (const s of listed)
      shown.push((await runCliJson<{ usage: Amount }>(["show", s.path, "--json"], { env: env() })).json.usage);
    expectSame(stats, sumAmounts(shown), 1);
    // pi's own answers, recorded from its SessionManager and AgentSession for every listed file
    const expected = JSON.parse(
      await import("node:fs").then((fs) => fs.readFileSync(join(SRC, "expected.json"), "utf8")),
    );
    const pi = (expected.listAllOrder as string[]).map((p) => expected.files[p].pi.sessionStats as Amount);
    expect(pi).toHaveLength(listed.length);
    expect(stats.tokens).toEqual(sumAmounts(pi).tokens);
    expect(Math.abs(stats.cost - sumAmounts(pi).cost)).toBeLessThan(1e-6);
    expect(stats.tokens.total).toBe(104318);
  });

  it("prints dollars to the millionth, not a sum's float noise (0.020999999999999998)", async () => {
    const r = await runCli(["stats", "--all", "--json", "--session-dir", PI_STORE], { env: { HOME: root } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/"cost":\s*-?\d+\.\d{7,}/);
    expect((JSON.parse(r.stdout) as Stats).cost).toBe(0.021);
  });

  it.each(["day", "folder", "model"])("by %s: the groups and their models add up to the total", async (by) => {
    const { json } = await runCliJson<Stats>(["stats", "--all", "--json", "--by", by], { env: env() });
    expect(json.by).toBe(by);
    expect(json.groups.length).toBeGreaterThan(1);
    expectSame(sumAmounts(json.groups), json, json.groups.length + 1);
    expectSame(sumAmounts(json.models), json, json.models.length + 1);
    for (const g of json.groups) expectSame(sumAmounts(g.models), g, g.models.length + 1);
    if (by === "model") expect(json.groups.map((g) => g.key)).toEqual(["claude-sonnet-4-5", "gpt-6"]);
    if (by === "folder")
      expect(json.groups.map((g) => g.key.split("/").pop()).sort()).toEqual(["proj-a", "proj-b", "proj-c"]);
  });

  it("--since counts usage from that local day on", async () => {
    const all = (await runCliJson<Stats>(["stats", "--all", "--json"], { env: env() })).json;
    const since = (await runCliJson<Stats>(["stats", "--all", "--json", "--since", "2026-11-15"], { env: env() })).json;
    expect(since.since).toBe("2026-11-15");
    // the store's usage lies on two days, 2026-11-01 and 2026-11-23 (in any time zone)
    const late = all.groups.filter((g) => g.key >= "2026-11-15");
    expect(late).toHaveLength(1);
    expect(since.groups).toEqual(late);
    expectSame(since, sumAmounts(late), late.length + 1);
    expect(since.tokens.total).toBeLessThan(all.tokens.total);
    const none = (await runCliJson<Stats>(["stats", "--all", "--json", "--since", "2030-01-01"], { env: env() })).json;
    expect(none.groups).toEqual([]);
    expect(none.cost).toBe(0);
  });

  it("scopes to this folder like list, or to --cwd", async () => {
    const expected = JSON.parse(
      await import("node:fs").then((fs) => fs.readFileSync(join(SRC, "expected.json"), "utf8")),
    );
    const cwd = Object.keys(expected.listByCwd).find((c) => c.endsWith("proj-a"))!;
    const listed = (await runCliJson<{ path: string }[]>(["list", "--json", "--cwd", cwd], { env: env() })).json;
    const stats = (await runCliJson<Stats>(["stats", "--json", "--cwd", cwd, "--by", "folder"], { env: env() })).json;
    expect(stats.sessions).toBe(listed.length);
    expect(stats.groups.map((g) => g.key)).toEqual([cwd]);
  });

  it("refuses bad options with exit 2", async () => {
    for (const args of [
      ["--by", "week"],
      ["--since", "2026-02-30"],
      ["--since", "yesterday"],
      ["extra"],
      ["--all", "--cwd", "/x"],
    ]) {
      const r = await runCli(["stats", ...args], { env: env() });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^pi-sessions: /);
    }
  });
});

/** A session's text: a user message and one reply by `model` with its `usage`, at one time. */
function oneReply(id: string, cwd: string, model: string, usage: object): string {
  const t = "2026-11-20T10:00:00.000Z";
  return (
    [
      { type: "session", version: 3, id, timestamp: t, cwd },
      { type: "message", id: "u", parentId: null, timestamp: t, message: { role: "user", content: "x" } },
      {
        type: "message",
        id: "r",
        parentId: "u",
        timestamp: t,
        message: { role: "assistant", content: [], model, usage },
      },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n") + "\n"
  );
}

describe("stats as text", () => {
  let store: string;
  beforeAll(() => {
    store = makeTmpDir("pi-sessions-stats-text-");
    const folder = join(store, "--evil--");
    mkdirSync(folder);
    const usage = {
      input: 1234567,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 1234568,
      cost: { total: 12.5 },
    };
    writeFileSync(
      join(folder, "a.jsonl"),
      oneReply(
        "a",
        "/evil/\x1b[31mred\x1b]0;title\x07/" + "very-long-folder-name-".repeat(6),
        "m\x1b[2Jodel\u009b",
        usage,
      ),
    );
  });

  it.each([40, 80, 132])("fits %i columns and carries no escape sequence from the files", async (cols) => {
    for (const by of ["day", "folder", "model"]) {
      const r = await runCli(["stats", "--all", "--by", by, "--session-dir", join(store, "--evil--")], {
        env: { COLUMNS: String(cols) },
      });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      for (const line of r.stdout.trimEnd().split("\n")) expect(displayWidth(line), line).toBeLessThanOrEqual(cols);
      expect(r.stdout).toMatch(/TOTAL +1 +1\.2M +\$12\.50/);
      expect(r.stdout).toContain("input 1,234,567, output 1");
    }
  });

  it("in a pipe: a folder whole, however long, and the dollars grouped (QA pass)", async () => {
    const dir = makeTmpDir("pi-sessions-stats-pipe-");
    const cwd = "/home/dev/src/github.com/acme/" + "deeply-nested-folder/".repeat(6) + "pi-mono-11";
    const usage = { input: 60441, output: 9046, cacheRead: 160955, cacheWrite: 0, cost: { total: 1774.01 } };
    writeFileSync(join(dir, "b.jsonl"), oneReply("b", cwd, "m", usage));
    const r = await runCli(["stats", "--all", "--by", "folder", "--session-dir", dir], { env: {} });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`\n${cwd}  `);
    expect(r.stdout).toMatch(/TOTAL +1 +230k +\$1,774\.01\n/);
    expect(r.stdout).toContain("models: m $1,774.01");
    const json = await runCliJson<Stats>(["stats", "--all", "--json", "--session-dir", dir], { env: {} });
    expect(json.json.cost).toBe(1774.01);
  });

  it("says so when nothing was used", async () => {
    const r = await runCli(["stats", "--all", "--since", "2031-01-01", "--session-dir", join(store, "--evil--")], {
      env: {},
    });
    expect(r.stdout).toContain("no usage recorded");
  });
});
