import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/text/sanitize.js";
import { makeSummary } from "../../test/helpers/sessions.js";
import { terminalColumns } from "../../test/helpers/terminal-columns.js";
import { fromProbe } from "../../src/browser/list/sessions.js";
import { formatRow, rowTone } from "./rowFormat.js";

const now = Date.parse("2025-06-01T00:00:00Z");

describe("formatRow", () => {
  const s = makeSummary({
    firstMessage: "fix the \x1b[31mtests\x1b[0m",
    messageCount: 12,
    bytes: 2048,
    modified: new Date(now - 3_600_000),
    cwd: "/home/u/a/very/long/project/path",
  });
  const row = { session: s, depth: 0, prefix: "" };
  it("is exactly as wide as asked, sanitized, with the marker when selected", () => {
    const line = formatRow(row, { width: 70, selected: true, showCwd: false, now });
    expect(displayWidth(line)).toBe(70);
    expect(line.startsWith("❯ fix the tests")).toBe(true);
    expect(line).toMatch(/1h +12 +2\.0K$/);
    expect(formatRow(row, { width: 70, selected: false, showCwd: false, now }).startsWith("  fix")).toBe(true);
  });
  it("keeps the columns aligned when the cwd holds wide characters", () => {
    const wide = { session: { ...s, cwd: "/Users/kim/code/研究" }, depth: 0, prefix: "" };
    const a = formatRow(row, { width: 90, selected: false, showCwd: true, now });
    const b = formatRow(wide, { width: 90, selected: false, showCwd: true, now });
    expect(displayWidth(b)).toBe(90);
    const ageAt = (line: string) => displayWidth(line.slice(0, line.indexOf(" 1h ")));
    expect(ageAt(b)).toBe(ageAt(a));
  });
  it("shows the cwd in the all scope, cut from the left", () => {
    const line = formatRow(row, { width: 90, selected: false, showCwd: true, now });
    expect(displayWidth(line)).toBe(90);
    expect(line).toMatch(/…\S*project\/path\s*$/);
  });
  it("prefers the name and draws tree glyphs", () => {
    const named = { session: makeSummary({ name: "My task" }), depth: 1, prefix: "└─ " };
    expect(formatRow(named, { width: 60, selected: false, showCwd: false, now })).toMatch(/^ {2}└─ My task/);
    expect(rowTone(named, false)).toBe("named");
  });
  it("marks provisional and unreadable rows", () => {
    const p = {
      session: fromProbe({
        path: "/p",
        id: "x",
        cwd: "/",
        created: new Date(now),
        bytes: 10,
        mtimeMs: now,
        firstMessage: "hi",
      }),
      depth: 0,
      prefix: "",
    };
    expect(formatRow(p, { width: 60, selected: false, showCwd: false, now })).toMatch(/now +… +10B$/);
    expect(rowTone(p, false)).toBe("provisional");
    const u = { session: { ...s, unreadable: "EACCES" }, depth: 0, prefix: "" };
    expect(formatRow(u, { width: 60, selected: false, showCwd: false, now })).toContain("✗ fix");
    expect(rowTone(u, true)).toBe("unreadable");
  });
  it("keeps wide titles within the width", () => {
    const wide = { session: makeSummary({ firstMessage: "日本語のテキスト".repeat(10) }), depth: 0, prefix: "" };
    expect(displayWidth(formatRow(wide, { width: 61, selected: false, showCwd: true, now }))).toBe(61);
  });
  it("falls back to a placeholder title", () => {
    const empty = { session: makeSummary({ firstMessage: "" }), depth: 0, prefix: "" };
    expect(formatRow(empty, { width: 60, selected: false, showCwd: false, now })).toContain("(no messages)");
  });
  it("shows a count of 100,000 messages in full, not cut to '1000…'", () => {
    const big = { session: makeSummary({ messageCount: 100_000, firstMessage: "big" }), depth: 0, prefix: "" };
    const line = formatRow(big, { width: 60, selected: false, showCwd: false, now });
    expect(line).toContain(" 100000 ");
    expect(line).not.toContain("1000…");
    expect(displayWidth(line)).toBe(60);
  });
  it("cuts a 50 MB first message to the row", () => {
    const huge = { session: makeSummary({ firstMessage: "y".repeat(50 * 1024 * 1024) }), depth: 0, prefix: "" };
    const line = formatRow(huge, { width: 80, selected: false, showCwd: false, now });
    expect(displayWidth(line)).toBe(80);
  });
  it("titles a session whose name and first message sanitize to nothing with '(no messages)', never its raw id", () => {
    const id = "\x1b]0;PWNED\x07";
    const hostile = {
      session: makeSummary({ id, name: "\x1b]52;c;QQ==\x07", firstMessage: "\x1b[2J" }),
      depth: 0,
      prefix: "",
    };
    const line = formatRow(hostile, { width: 60, selected: false, showCwd: false, now });
    expect(line).toContain("(no messages)");
    expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });
  it("lines up in a terminal that measures code point by code point: ZWJ emoji, VS16, zero-width text", () => {
    const tricky = {
      session: makeSummary({ firstMessage: "👩‍👩‍👧 ❤️ 👍🏽 a\u2060b soft\u00adhy \u200bz", cwd: "/p/🏳️‍🌈" }),
      depth: 0,
      prefix: "",
    };
    for (const width of [40, 61, 90]) {
      const line = formatRow(tricky, { width, selected: false, showCwd: true, now });
      expect(terminalColumns(line)).toBe(width);
    }
  });
});

describe("the age column follows the sort (issue 20)", () => {
  it("sorted by created, it shows the creation age under MADE", async () => {
    const { formatRowParts, formatHeader } = await import("./rowFormat.js");
    const { makeSummary } = await import("../../test/helpers/sessions.js");
    const now = Date.parse("2026-11-24T12:00:00Z");
    const session = makeSummary({ created: new Date(now - 3 * 86_400_000), modified: new Date(now - 2 * 3_600_000) });
    const row = { session, depth: 0, prefix: "" };
    expect(formatRowParts(row, { width: 80, selected: false, showCwd: false, now }).right).toMatch(/^ {3}2h/);
    expect(formatRowParts(row, { width: 80, selected: false, showCwd: false, now, ageOf: "created" }).right).toMatch(
      /^ {3}3d/,
    );
    expect(formatHeader(80, false, "created")).toContain("MADE");
    expect(formatHeader(80, false)).toContain(" AGE");
  });
});
