import { describe, expect, it } from "vitest";
import { clearInput, deleteBack, deleteWordBack, EMPTY_INPUT, insertText, moveCursor } from "./textInput.js";

const at = (value: string, cursor = Array.from(value).length) => ({ value, cursor });

describe("text input", () => {
  it("inserts at the cursor", () => {
    expect(insertText(EMPTY_INPUT, "abc")).toEqual(at("abc"));
    expect(insertText(at("ac", 1), "b")).toEqual(at("abc", 2));
  });
  it("drops control characters and escapes from pasted text", () => {
    expect(insertText(EMPTY_INPUT, "a\x1b[31mb\nc")).toEqual(at("ab c"));
    expect(insertText(EMPTY_INPUT, "\x07")).toBe(EMPTY_INPUT);
  });
  it("deletes back by code point", () => {
    expect(deleteBack(at("a👍"))).toEqual(at("a"));
    expect(deleteBack(at("abc", 0))).toEqual(at("abc", 0));
    expect(deleteBack(at("abc", 2))).toEqual(at("ac", 1));
  });
  it("deletes a word back", () => {
    expect(deleteWordBack(at("foo bar  "))).toEqual(at("foo "));
    expect(deleteWordBack(at("foo bar", 3))).toEqual(at(" bar", 0));
    expect(deleteWordBack(at("", 0))).toEqual(at("", 0));
  });
  it("clears", () => {
    expect(clearInput()).toEqual(EMPTY_INPUT);
  });
  it("moves the cursor within bounds", () => {
    expect(moveCursor(at("ab"), "left")).toEqual(at("ab", 1));
    expect(moveCursor(at("ab"), "right")).toEqual(at("ab", 2));
    expect(moveCursor(at("ab", 0), "left")).toEqual(at("ab", 0));
    expect(moveCursor(at("ab", 1), "home")).toEqual(at("ab", 0));
    expect(moveCursor(at("ab", 0), "end")).toEqual(at("ab", 2));
  });
});
