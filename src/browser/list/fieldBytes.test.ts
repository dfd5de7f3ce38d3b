import { describe, expect, it } from "vitest";
import { makeSummary } from "../../../test/helpers/sessions.js";
import { fieldTextOf } from "../../search/field-text.js";
import { bytesText } from "./fieldBytes.js";

describe("bytesText: the list's field text as UTF-8 bytes", () => {
  const cjk = [
    makeSummary({ name: "函数 重构", firstMessage: "会话".repeat(40), cwd: "/home/u/研究" }),
    makeSummary({ firstMessage: "plain ascii", cwd: "/home/u/proj" }),
  ];
  const asText = fieldTextOf(cjk);
  const asBytes = Buffer.byteLength(asText.text, "utf8");

  it("holds each part as its bytes while they fit in a string", () => {
    const t = bytesText(cjk, undefined, asBytes);
    expect(t.utf8).toBe(true);
    expect(t.text).toBe(Buffer.from(asText.text, "utf8").toString("latin1"));
    expect(t.lengths).toEqual(asText.lengths.map((_, i) => Buffer.byteLength(asText.text.split("\u0000")[i], "utf8")));
  });

  it("holds the parts as text when their bytes are more than a string may hold, which their text is not (CJK: three bytes a character)", () => {
    // The limit stubbed: V8's (~512 M characters) is the same story at a size a test cannot make.
    const t = bytesText(cjk, undefined, asText.text.length);
    expect(asBytes).toBeGreaterThan(asText.text.length);
    expect(t.utf8).toBe(false);
    expect(t.text).toBe(asText.text);
    expect(t.lengths).toEqual(asText.lengths);
  });
});
