import { afterAll, describe, expect, it } from "vitest";
import { assistant, user, writeSession } from "./helpers/session-file.js";
import { runCli, runCliJson } from "./helpers/cli.js";

// Two replies recording figures no real usage has: huge (their sum overflows), negative, NaN-like.
const bad = { input: -5, output: 1e308, cacheRead: 10, cacheWrite: 0, totalTokens: 1e308, cost: { total: 1e308 } };
const good = { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120, cost: { total: 0.5 } };
const file = writeSession([
  user("u1", null, "hi"),
  assistant("a1", "u1", "one", { usage: bad }),
  user("u2", "a1", "again"),
  assistant("a2", "u2", "two", { usage: bad }),
  user("u3", "a2", "and"),
  assistant("a3", "u3", "three", { usage: good }),
]);
afterAll(() => file.cleanup());
const env = { PI_CODING_AGENT_SESSION_DIR: file.dir };

describe("usage figures out of range count as absent (issue 21 item 9)", () => {
  it("list: no negative or infinite totals, the good figures still count", async () => {
    const { json } = await runCliJson<{ tokens: { total: number; input: number }; cost: number }[]>(
      ["list", "--all", "--json"],
      { env },
    );
    expect(json[0].cost).toBe(0.5);
    expect(json[0].tokens).toMatchObject({ input: 100, total: 140 });
  });
  it("stats: no $Infinity, no negative totals", async () => {
    const r = await runCli(["stats", "--all"], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/Infinity|NaN|[\s$]-\d/);
    expect(r.stdout).toMatch(/TOTAL +1 +140 +\$0\.50/);
  });
  it("show: finite totals, and says how many figures were left out", async () => {
    const r = await runCli(["show", file.path], { env });
    expect(r.stdout).toMatch(
      /usage: +140 tokens .*\$0\.5 \(6 usage figures left out: negative, not a number or too large\)/,
    );
    const { json } = await runCliJson<{ usage: { cost: number; ignored?: number } }>(["show", file.path, "--json"], {
      env,
    });
    expect(json.usage.cost).toBe(0.5);
    expect(json.usage.ignored).toBe(6);
  });
});
