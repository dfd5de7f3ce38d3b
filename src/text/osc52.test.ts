import { describe, expect, it } from "vitest";
import { osc52 } from "./osc52.js";

describe("osc52", () => {
  it("is OSC 52 for the clipboard selection with the UTF-8 text in base64, ended by BEL", () => {
    expect(osc52("hi")).toBe("\x1b]52;c;aGk=\x07");
    const s = osc52("naïve 研究 🎉\nline two");
    expect(s.startsWith("\x1b]52;c;")).toBe(true);
    expect(Buffer.from(s.slice(7, -1), "base64").toString("utf8")).toBe("naïve 研究 🎉\nline two");
  });
  it("the payload holds no control characters, whatever the text", () => {
    const s = osc52("\x1b]0;evil\x07\x1b[2J");
    expect(s.slice(7, -1)).toMatch(/^[A-Za-z0-9+/=]*$/);
  });
  it("what is copied carries no control characters but tab and newline: a pasted ESC[201~ cannot end a bracketed paste", () => {
    const s = osc52("before\x1b[201~rm -rf ~\r\nnext\tcol\x9b1;2H\x07end");
    expect(Buffer.from(s.slice(7, -1), "base64").toString("utf8")).toBe("before[201~rm -rf ~\nnext\tcol1;2Hend");
  });
  it("an empty text clears nothing special: an empty payload", () => {
    expect(osc52("")).toBe("\x1b]52;c;\x07");
  });
  it("tmux passthrough wraps it in DCS with each ESC doubled", () => {
    expect(osc52("hi", { tmux: true })).toBe("\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\");
  });
});
