import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../model/types.js";
import { buildBlocks, isMessageKind } from "./blocks.js";

let n = 0;
const e = (type: string, fields: Record<string, unknown> = {}): SessionEntry => ({
  type,
  id: `e${++n}`,
  parentId: null,
  timestamp: "2026-05-02T09:14:03.221Z",
  ...fields,
});
const msg = (message: Record<string, unknown>) => e("message", { message });

describe("buildBlocks", () => {
  it("user and assistant text, thinking kept in order, tool calls with their results", () => {
    const blocks = buildBlocks([
      e("model_change", { provider: "p", modelId: "m" }),
      e("thinking_level_change", { thinkingLevel: "high" }),
      msg({
        role: "user",
        content: [
          { type: "text", text: "fix " },
          { type: "text", text: "it" },
          { type: "image", data: "", mimeType: "image/png" },
        ],
      }),
      msg({
        role: "assistant",
        model: "claude",
        stopReason: "toolUse",
        content: [
          { type: "thinking", thinking: "hmm" },
          { type: "text", text: "Looking." },
          { type: "toolCall", id: "c1", name: "read", arguments: { path: "src/a.ts" } },
          { type: "toolCall", id: "c2", name: "bash", arguments: { command: "npm test" } },
        ],
      }),
      msg({
        role: "toolResult",
        toolCallId: "c2",
        toolName: "bash",
        content: [{ type: "text", text: "1 failing" }],
        isError: true,
      }),
      msg({
        role: "toolResult",
        toolCallId: "c1",
        toolName: "read",
        content: [{ type: "text", text: "export {}" }],
        isError: false,
      }),
      msg({ role: "assistant", stopReason: "stop", content: [{ type: "text", text: "Done." }] }),
    ]);
    expect(blocks.map((b) => b.kind)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    expect(blocks[0]).toMatchObject({ kind: "user", text: "fix it", images: 1 });
    expect(blocks[1]).toMatchObject({
      parts: [
        { type: "thinking", text: "hmm" },
        { type: "text", text: "Looking." },
      ],
      model: "claude",
    });
    expect(blocks[2]).toMatchObject({ title: "read: src/a.ts", output: "export {}", isError: false });
    expect(blocks[3]).toMatchObject({ title: "bash: npm test", output: "1 failing", isError: true });
    expect(blocks.filter((b) => isMessageKind(b.kind))).toHaveLength(3);
  });

  it("a reply of tool calls only gets the assistant's header after the user's message, not after its own turn", () => {
    const call = (id: string) =>
      msg({
        role: "assistant",
        model: "m",
        stopReason: "toolUse",
        content: [{ type: "toolCall", id, name: "ls", arguments: {} }],
      });
    const result = (id: string) => msg({ role: "toolResult", toolCallId: id, toolName: "ls", content: [] });
    const blocks = buildBlocks([
      msg({ role: "user", content: "look" }),
      call("k1"),
      result("k1"),
      call("k2"),
      result("k2"),
    ]);
    expect(blocks.map((b) => b.kind)).toEqual(["user", "assistant", "tool", "tool"]);
    expect(blocks[1]).toMatchObject({ kind: "assistant", parts: [], toolsOnly: true, model: "m" });
  });

  it("skips what pi does not draw: custom, label, session_info, hidden custom messages, system, unknown types", () => {
    const blocks = buildBlocks([
      e("custom", { customType: "pi-sessions/navigate", data: {} }),
      e("label", { targetId: "x", label: "keep" }),
      e("session_info", { name: "n" }),
      e("custom_message", { customType: "todo", content: "hidden", display: false }),
      e("custom_message", { customType: "todo", content: "shown", display: true }),
      msg({ role: "custom", customType: "ext", content: [{ type: "text", text: "also shown" }], display: true }),
      msg({ role: "custom", customType: "ext", content: "no display flag" }),
      msg({ role: "system", content: "prompt" }),
      msg({ role: "user", content: "" }),
      e("usage", { kind: "x" }),
      e("something_new", { text: "?" }),
    ]);
    expect(blocks).toEqual([
      { kind: "custom", entryId: expect.any(String), customType: "todo", text: "shown" },
      { kind: "custom", entryId: expect.any(String), customType: "ext", text: "also shown" },
    ]);
  });

  it("compaction and branch summaries become marked blocks (an empty branch summary is skipped, as pi)", () => {
    const blocks = buildBlocks([
      e("compaction", { summary: "Investigated.", firstKeptEntryId: "x", tokensBefore: 61234 }),
      e("branch_summary", { fromId: "y", summary: "Tried guarding." }),
      e("branch_summary", { fromId: "y", summary: "" }),
    ]);
    expect(blocks).toMatchObject([
      { kind: "compaction", summary: "Investigated.", tokensBefore: 61234 },
      { kind: "branch_summary", summary: "Tried guarding." },
    ]);
  });

  it("a failed or aborted turn: its calls show the error, and a late result is a block of its own", () => {
    const blocks = buildBlocks([
      msg({
        role: "assistant",
        stopReason: "error",
        errorMessage: "overloaded",
        content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } }],
      }),
      msg({ role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "late" }] }),
      msg({ role: "assistant", stopReason: "aborted", content: [] }),
    ]);
    expect(blocks).toMatchObject([
      { kind: "assistant", error: "overloaded", parts: [] },
      { kind: "tool", output: "overloaded", isError: true },
      { kind: "tool", title: "bash", output: "late" },
      { kind: "assistant", error: "aborted" },
    ]);
  });

  it("bash executions (`!` commands) are tool blocks; a non-zero exit is an error", () => {
    const [ok, bad] = buildBlocks([
      msg({ role: "bashExecution", command: "ls", output: "a\n", exitCode: 0, cancelled: false }),
      msg({ role: "bashExecution", command: "false", output: "", exitCode: 1, cancelled: false }),
    ]);
    expect(ok).toMatchObject({ kind: "tool", title: "$ ls", output: "a\n", isError: false });
    expect(bad).toMatchObject({ title: "$ false", isError: true });
  });

  it("a tool-only turn within a turn is just its tool block; text is not copied (a 20 MB output is the same string)", () => {
    const big = "x".repeat(20 << 20);
    const blocks = buildBlocks(
      [
        msg({
          role: "assistant",
          stopReason: "toolUse",
          content: [{ type: "toolCall", id: "c", name: "read", arguments: {} }],
        }),
        msg({ role: "toolResult", toolCallId: "c", toolName: "read", content: [{ type: "text", text: big }] }),
      ],
      { inTurn: true },
    );
    expect(blocks).toHaveLength(1);
    expect((blocks[0] as { output: string }).output).toBe(big);
  });
});
