import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/text/sanitize.js";
import { makeSummary } from "../../test/helpers/sessions.js";
import { fromProbe } from "../state/sessions.js";
import { formatAge, formatRow, formatSize, rowTone } from "./rowFormat.js";

const now = Date.parse("2025-06-01T00:00:00Z");
const ago = (ms: number) => formatAge(now - ms, now);

describe("formatAge", () => {
  it("uses now/m/h/d/w/mo/y", () => {
    expect(ago(10_000)).toBe("now");
    expect(ago(5 * 60_000)).toBe("5m");
    expect(ago(3 * 3_600_000)).toBe("3h");
    expect(ago(2 * 86_400_000)).toBe("2d");
    expect(ago(15 * 86_400_000)).toBe("2w");
    expect(ago(90 * 86_400_000)).toBe("3mo");
    expect(ago(800 * 86_400_000)).toBe("2y");
    expect(formatAge(now + 5000, now)).toBe("now");
  });
});

describe("formatSize", () => {
  it("fits in five columns", () => {
    expect(formatSize(512)).toBe("512B");
    expect(formatSize(1536)).toBe("1.5K");
    expect(formatSize(34 * 1024)).toBe("34K");
    expect(formatSize(1.5 * 1024 * 1024)).toBe("1.5M");
    expect(formatSize(999 * 1024 * 1024)).toBe("999M");
  });
});

describe("formatRow", () => {
  const s = makeSummary({ firstMessage: "fix the \x1b[31mtests\x1b[0m", messageCount: 12, bytes: 2048, modified: new Date(now - 3_600_000), cwd: "/home/u/a/very/long/project/path" });
  const row = { session: s, depth: 0, prefix: "" };
  it("is exactly as wide as asked, sanitized, with the marker when selected", () => {
    const line = formatRow(row, { width: 70, selected: true, showCwd: false, now });
    expect(displayWidth(line)).toBe(70);
    expect(line.startsWith("❯ fix the tests")).toBe(true);
    expect(line).toMatch(/1h +12 +2\.0K$/);
    expect(formatRow(row, { width: 70, selected: false, showCwd: false, now }).startsWith("  fix")).toBe(true);
  });
  it("shows the cwd in the all scope, cut from the left", () => {
    const line = formatRow(row, { width: 90, selected: false, showCwd: true, now });
    expect(displayWidth(line)).toBe(90);
    expect(line).toMatch(/…\S*project\/path\s*$/);
  });
  it("prefers the name and draws tree glyphs", () => {
    const named = { session: makeSummary({ name: "My task" }), depth: 1, prefix: "└─ " };
    expect(formatRow(named, { width: 60, selected: false, showCwd: false, now })).toMatch(/^  └─ My task/);
    expect(rowTone(named, false)).toBe("named");
  });
  it("marks provisional and unreadable rows", () => {
    const p = { session: fromProbe({ path: "/p", id: "x", cwd: "/", created: new Date(now), bytes: 10, mtimeMs: now, firstMessage: "hi" }), depth: 0, prefix: "" };
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
});
