import { describe, expect, it } from "vitest";
import { NO_MESSAGES, sessionTitle } from "./session-title.js";

const OSC_TITLE = "\x1b]0;PWNED\x07";
const OSC_CLIP = "\x1b]52;c;cm0gLXJmIH4=\x07";
const OSC_LINK = "\x1b]8;;https://evil.example\x1b\\";

describe("sessionTitle: the one title rule", () => {
  it("is the name, else the first message, sanitized to one line", () => {
    expect(sessionTitle({ name: `my ${OSC_TITLE}name`, firstMessage: "hi" })).toBe("my name");
    expect(sessionTitle({ firstMessage: `fix\n${OSC_CLIP}the ${OSC_LINK}tests\x9b2J` })).toBe("fix the tests");
  });
  it("falls back to pi's '(no messages)', never to the raw id or path, when both sanitize to nothing", () => {
    const s = {
      id: `${OSC_TITLE}abc`,
      path: `/s/${OSC_CLIP}.jsonl`,
      name: OSC_TITLE,
      firstMessage: `${OSC_CLIP}\x1b[2J`,
    };
    expect(sessionTitle(s)).toBe(NO_MESSAGES);
    expect(sessionTitle({ firstMessage: "" })).toBe(NO_MESSAGES);
  });
  it("costs a row, not the message: a 50 MB first message gives a title of a few KB", () => {
    const t = sessionTitle({ firstMessage: "x".repeat(50 * 1024 * 1024) });
    expect(t.length).toBeLessThanOrEqual(4096);
    expect(t.startsWith("xxxx")).toBe(true);
  });
  it("does not end on half a surrogate pair when cut", () => {
    const t = sessionTitle({ firstMessage: "a" + "😀".repeat(5000) });
    expect(/[\ud800-\udbff]$/.test(t)).toBe(false);
  });
});
