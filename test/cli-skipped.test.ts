import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "./helpers/cli.js";
import { cleanupTmp, copyStore, DAMAGED_STORE, PI_STORE } from "./helpers/tmp-store.js";

/*
 * `list --skipped`: the files the browser counts as "N files skipped", each with why; text
 * from file names sanitized on a terminal's lines, exact in --json.
 */
afterAll(cleanupTmp);

interface Skipped {
  path: string;
  kind: string;
  reason: string;
}

function damagedStore(): { store: string; hostile: string } {
  const store = copyStore(DAMAGED_STORE);
  const hostile = join(store, "--tmp-damaged--", "evil\x1b[2J\x1b]0;owned\x07.jsonl");
  writeFileSync(hostile, "not json at all\n");
  return { store, hostile };
}

describe("list --skipped", () => {
  it("--json names every skipped file with its kind and reason, as list's stderr does", async () => {
    const { store, hostile } = damagedStore();
    const listed = await runCli(["list", "--all", "--session-dir", store]);
    const said = [...listed.stderr.matchAll(/^pi-sessions: skipped (.*?): /gm)].length;
    const { json } = await runCliJson<Skipped[]>(["list", "--skipped", "--json", "--session-dir", store]);
    expect(json.length).toBe(said);
    expect(json.length).toBeGreaterThanOrEqual(4);
    expect(json.map((d) => d.path)).toContain(hostile);
    for (const d of json) expect(d.reason).not.toBe("");
    expect(json.find((d) => d.path.endsWith("empty.jsonl"))).toMatchObject({ kind: "empty", reason: "empty file" });
  });

  it("prints one line a file, the kind then the path and why, with no escape sequence from a name", async () => {
    const { store } = damagedStore();
    const r = await runCli(["list", "--skipped", "--session-dir", store], { isTTY: true, columns: 200 });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.some((l) => /^empty\s+.*empty\.jsonl: empty file$/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes("evil") && l.includes(".jsonl"))).toBe(true);
    expect(r.stdout).not.toMatch(/\x1b|\x07/);
  });

  it("on a store with nothing skipped prints nothing and says so on stderr", async () => {
    const r = await runCli(["list", "--skipped", "--session-dir", copyStore(PI_STORE)]);
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(r.stderr).toMatch(/^no files skipped in /);
    expect(
      (await runCliJson<Skipped[]>(["list", "--skipped", "--json", "--session-dir", copyStore(PI_STORE)])).json,
    ).toEqual([]);
  });
});
