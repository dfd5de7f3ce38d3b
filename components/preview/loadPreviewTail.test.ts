import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPreviewTail } from "./loadPreviewTail.js";

const root = join("fixtures", "pi-generated", "agent", "sessions");
const files = readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((f) => join(root, d, f)));

describe("loadPreviewTail", () => {
  it("reads the tail of the active path as user/assistant entries, sanitized", async () => {
    let sawTool = false;
    for (const f of files.slice(0, 10)) {
      const tail = await loadPreviewTail(f, 40);
      expect(tail.pathLength).toBeGreaterThan(0);
      for (const e of tail.entries) {
        expect(["user", "assistant"]).toContain(e.role);
        expect(e.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
        if (e.toolCalls.length) sawTool = true;
      }
    }
    expect(sawTool).toBe(true);
  });
  it("reads the first exchange: the first user message, then up to the first reply with text", async () => {
    for (const f of files.slice(0, 10)) {
      const { head = [] } = await loadPreviewTail(f, 2);
      expect(head[0]?.role).toBe("user");
      const last = head[head.length - 1];
      if (head.length > 1) expect(last).toMatchObject({ role: "assistant", text: expect.stringMatching(/\S/) });
      expect(head.slice(1, -1).every((e) => e.role !== "assistant" || !e.text)).toBe(true);
    }
  });
  it("rejects a missing file", async () => {
    await expect(loadPreviewTail(join(root, "nope.jsonl"))).rejects.toThrow();
  });
});
