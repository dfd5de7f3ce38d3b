import { describe, expect, it } from "vitest";
import { makeSessions } from "../../test/helpers/sessions.js";
import { DEFAULT_KEYMAP } from "../../src/browser/keys/keymap.js";
import { initialState } from "../../src/browser/app/appReducer.js";
import { seedScan } from "../../src/browser/app/scanSeed.js";
import { preframe, styled } from "./preframe.js";
import { theme } from "../theme/theme.js";

const CWD = "/home/u/proj";
const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");

function state(n: number) {
  const sessions = makeSessions(n, { cwd: CWD });
  return seedScan(initialState({ launchCwd: CWD }), [{ kind: "summaries", items: sessions }]);
}

describe("preframe", () => {
  it("draws the list screen Ink starts with: header, framed rows with the first selected, an empty preview, the hints", () => {
    const text = preframe(state(3), {
      columns: 120,
      rows: 20,
      storeLabel: "~/.pi/agent/sessions",
      keymap: DEFAULT_KEYMAP,
      now: Date.parse("2025-01-16T12:00:00Z"),
    })!;
    const lines = strip(text)
      .split("\n")
      .map((l) => l.replace(/\r$/, ""));
    expect(lines).toHaveLength(20);
    expect(lines[0]).toMatch(/^pi-sessions ~\/\.pi\/agent\/sessions · this folder · 3\/3/);
    expect(lines[1]).toMatch(/^╭─ Sessions · this folder ─+ 1 of 3 ─╮╭─ Preview ─+╮$/);
    expect(lines[2]).toContain("TITLE");
    expect(lines[3]).toMatch(/^│❯ session 0 /);
    expect(lines[4]).toMatch(/^│ {2}session 1 /);
    expect(lines.at(-1)).toContain("? help");
    // The cursor goes home for Ink's first frame, which draws over this one.
    expect(text.endsWith("\x1b[H")).toBe(true);
  });
  it("draws nothing when Ink would not start on this list: no rows, too small, a search", () => {
    const o = { columns: 120, rows: 20, storeLabel: "s", keymap: DEFAULT_KEYMAP, now: 0 };
    expect(preframe(state(0), o)).toBeUndefined();
    expect(preframe(state(3), { ...o, columns: 40 })).toBeUndefined();
    const searched = seedScan(initialState({ launchCwd: CWD, query: "x" }), [
      { kind: "summaries", items: makeSessions(2, { cwd: CWD }) },
    ]);
    expect(preframe(searched, o)).toBeUndefined();
  });
  it("splits the list and the preview as the state says (the config's previewShare), as Ink will", () => {
    const o = { columns: 120, rows: 20, storeLabel: "s", keymap: DEFAULT_KEYMAP, now: 0 };
    const s = { ...state(3), previewShare: 0 };
    const first = strip(preframe(s, o)!).split("\r\n")[1];
    expect(first).toMatch(/^╭─ Sessions · this folder ─+ 1 of 3 ─╮$/);
  });
  it("styles with the theme's attributes", () => {
    expect(styled("x", theme.selected)).toMatch(/^\x1b\[[0-9;]*7[0-9;]*mx\x1b\[0m$/);
    expect(styled("x", undefined)).toBe("x");
  });
});
