import { describe, expect, it } from "vitest";
import { makeSessions } from "../../test/helpers/sessions.js";
import { initialState } from "../../src/browser/app/appReducer.js";
import { seedScan } from "../../src/browser/app/scanSeed.js";
import type { SessionSummary } from "../../src/model/types.js";
import { preframe } from "./preframe.js";
import { DEFAULT_KEYMAP } from "../../src/browser/keys/keymap.js";
import { sameShownRows, shownRows } from "./shownRows.js";

const CWD = "/home/u/proj";
const state = (sessions: SessionSummary[]) =>
  seedScan(initialState({ launchCwd: CWD, all: true }), [{ kind: "summaries", items: sessions }]);
const size = { columns: 120, rows: 16 };

describe("the rows a first screen shows", () => {
  it("are the list's first rows, as many as preframe draws, with the cursor's row", () => {
    const s = state(makeSessions(40, { cwd: CWD }));
    const shown = shownRows(s, size)!;
    expect(shown.cursor).toBe(0);
    expect(shown.paths).toEqual(s.rows.slice(0, shown.paths.length).map((r) => r.session.path));
    const text = preframe(s, { ...size, storeLabel: "s", keymap: DEFAULT_KEYMAP, now: 0 })!;
    const drawn = s.rows.filter((r) => text.includes(r.session.firstMessage + " ")).length;
    expect(shown.paths.length).toBe(drawn);
    expect(shownRows(s, { columns: 10, rows: 5 })).toBeUndefined();
  });

  it("agree only on the same rows in the same order with the cursor on the same one", () => {
    const sessions = makeSessions(40, { cwd: CWD });
    const shown = shownRows(state(sessions), size)!;
    expect(sameShownRows(shown, shownRows(state([...sessions]), size))).toBe(true);
    // An older session active since: the list's first row, never drawn.
    const older = { ...sessions[39], modified: new Date(sessions[0].modified.getTime() + 60_000) };
    expect(sameShownRows(shown, shownRows(state([...sessions.slice(0, 39), older]), size))).toBe(false);
    // Fewer rows (the scan not that far), another order, another cursor, another screen size.
    expect(sameShownRows(shown, shownRows(state(sessions.slice(0, 3)), size))).toBe(false);
    expect(sameShownRows(shown, { ...shown, paths: [...shown.paths].reverse() })).toBe(false);
    expect(sameShownRows(shown, { ...shown, cursor: 1 })).toBe(false);
    expect(sameShownRows(shown, shownRows(state(sessions), { columns: 120, rows: 20 }))).toBe(false);
    expect(sameShownRows(shown, undefined)).toBe(false);
  });
});
