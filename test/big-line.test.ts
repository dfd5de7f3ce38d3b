import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/*
 * Issue 21 item 6: a line of ~55 MB made of a million small content blocks. JSON.parse of it
 * costs ~300 MB of objects; listing (and the browser's index) read it bounded, so `list`
 * runs in a heap far smaller than that.
 */
const dir = mkdtempSync(join(tmpdir(), "pi-sessions-bigline-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const t = "2026-05-02T09:15:00.000Z";
mkdirSync(join(dir, "--p--"));
const block = JSON.stringify({ type: "text", text: "word word word word " });
const n = Math.floor(55e6 / (block.length + 1));
const content = `[${Array.from({ length: n }, () => block).join(",")}]`;
writeFileSync(
  join(dir, "--p--", "2026-05-02T09-14-03-221Z_big.jsonl"),
  [
    JSON.stringify({ type: "session", version: 3, id: "big-0001", timestamp: t, cwd: "/p" }),
    JSON.stringify({
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: t,
      message: { role: "user", content: "the question", timestamp: 1 },
    }),
    `{"type":"message","id":"a1","parentId":"u1","timestamp":"${t}","message":{"role":"assistant","content":${content},"stopReason":"stop","model":"m","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.25}}}}`,
  ].join("\n") + "\n",
);

describe("a 55 MB line of a million small blocks (issue 21 item 6)", () => {
  it("list reads it in a 100 MB heap, with its facts right", () => {
    const cli = join(import.meta.dirname, "..", "dist", "bundle", "cli.js");
    const r = spawnSync(
      process.execPath,
      ["--max-old-space-size=100", cli, "list", "--all", "--json", "--session-dir", dir],
      { encoding: "utf8", env: { PATH: process.env.PATH } },
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const [s] = JSON.parse(r.stdout);
    expect(s).toMatchObject({ id: "big-0001", messageCount: 2, firstMessage: "the question", cost: 0.25 });
  }, 60_000);
});
