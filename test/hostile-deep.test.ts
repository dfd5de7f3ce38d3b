import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CUT_NOTE } from "../src/model/bounded-json.js";
import { loadSessionIndex } from "../src/store/session-index.js";
import { lazyBlocks } from "../src/transcript/lazy.js";
import { runCli } from "./helpers/cli.js";

// Issue 21 item 5: a tool call whose arguments nest 200,000 deep (a 1.2 MB file).
const dir = mkdtempSync(join(tmpdir(), "pi-sessions-deep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const t = "2026-05-02T09:15:00.000Z";
const args = '{"a":'.repeat(200_000) + "1" + "}".repeat(200_000);
const path = join(dir, "2026-05-02T09-14-03-221Z_deep.jsonl");
writeFileSync(
  path,
  [
    JSON.stringify({ type: "session", version: 3, id: "deep-0001", timestamp: t, cwd: "/tmp/deep" }),
    JSON.stringify({
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: t,
      message: { role: "user", content: "hi", timestamp: 1 },
    }),
    `{"type":"message","id":"a1","parentId":"u1","timestamp":"${t}","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"bash","arguments":${args}}],"stopReason":"toolUse","model":"m"}}`,
  ].join("\n") + "\n",
);
const env = { PI_CODING_AGENT_SESSION_DIR: dir };

describe("a value nested 200,000 deep (issue 21 item 5)", () => {
  it("the index, the tree's rows and the reader read it; the call shows cut on one line", async () => {
    const index = await loadSessionIndex(path);
    expect(index.byId.get("a1")?.toolCalls?.[0][1]).toMatch(/^bash: \{"a":\{"a":.*…$/);
    const blocks = lazyBlocks(index, ["u1", "a1"]);
    const all = Array.from({ length: blocks.length }, (_, i) => blocks.get(i));
    expect(all.find((b) => b?.kind === "tool")).toMatchObject({
      kind: "tool",
      title: expect.stringMatching(/^bash: \{"a":.*…$/),
    });
  });
  it("show, show --json and every export succeed, with the too-deep part cut and said so", async () => {
    for (const argv of [
      ["show", path],
      ["show", path, "--json"],
      ["export", path],
      ["export", path, "--format", "html"],
      ["export", path, "--all-branches"],
    ]) {
      const r = await runCli(argv, { env });
      expect(r.stderr, argv.join(" ")).toBe("");
      expect(r.code).toBe(0);
    }
    const jsonl = await runCli(["export", path, "--format", "jsonl"], { env });
    expect(jsonl.code).toBe(0);
    const entry = JSON.parse(jsonl.stdout.trim().split("\n")[2]);
    expect(JSON.stringify(entry)).toContain(CUT_NOTE);
  });
});
