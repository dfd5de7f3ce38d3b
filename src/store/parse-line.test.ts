import { describe, expect, it } from "vitest";
import type { LineRef } from "./line-reader.js";
import { parseLine } from "./parse-line.js";

const ref = (text: string, terminated = true): LineRef => {
  const buf = Buffer.from(text);
  return { buf, start: 0, end: buf.length, offset: 0, line: 1, terminated };
};
const toolLine = (id: string, parent: string, size: number) =>
  JSON.stringify({
    type: "message",
    id,
    parentId: parent,
    timestamp: "2026-01-01T00:00:00.000Z",
    message: {
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "bash",
      content: [{ type: "text", text: "x".repeat(size) }],
      isError: false,
      timestamp: 1,
    },
  });

describe("parseLine skim", () => {
  it("skims a bulky tool output from its first bytes, keeping ids and the call it answers", () => {
    const p = parseLine(ref(toolLine("aaaa0001", "aaaa0000", 5000)), true, 1024);
    expect(p).toEqual({
      kind: "skimmed",
      value: {
        type: "message",
        id: "aaaa0001",
        parentId: "aaaa0000",
        timestamp: "2026-01-01T00:00:00.000Z",
        message: { role: "toolResult", toolCallId: "call_1", toolName: "bash" },
      },
    });
  });

  it("parses fully below the threshold, when not skimming, and for an unterminated last line", () => {
    expect(parseLine(ref(toolLine("a", "b", 100)), true, 1024).kind).toBe("value");
    expect(parseLine(ref(toolLine("a", "b", 5000)), false, 1024).kind).toBe("value");
    expect(parseLine(ref(toolLine("a", "b", 5000), false), true, 1024).kind).toBe("value");
  });

  it("does not skim two entries merged into one line (old pi appending onto a half-written line)", () => {
    const half = toolLine("aaaa0001", "aaaa0000", 5000).slice(0, 3000);
    const merged = half + toolLine("aaaa0002", "aaaa0001", 10);
    const p = parseLine(ref(merged), true, 1024);
    expect(p.kind).toBe("malformed");
  });

  it("is not fooled by an escaped parentId inside the tool output", () => {
    const text = toolLine("aaaa0001", "aaaa0000", 10).replace(
      '"xxxxxxxxxx"',
      JSON.stringify('{"parentId":"z"}' + "y".repeat(4000)),
    );
    expect(parseLine(ref(text), true, 1024).kind).toBe("skimmed");
  });
});
