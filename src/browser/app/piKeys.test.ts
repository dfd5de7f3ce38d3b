import type { Key } from "../keys/key.js";
import { describe, expect, it } from "vitest";
import { K, key as inkKey } from "../../../test/helpers/keys.js";
import { makeSessions } from "../../../test/helpers/sessions.js";
import { type AppAction, type AppState, initialState, modeOf } from "./appReducer.js";
import { reduce, scanSummaries } from "../../../test/helpers/update.js";

/* pi's /resume keys in the list and the picker (issue 33): the reducer's side. */

const CWD = "/home/u/proj";
const run = (s: AppState, ...actions: AppAction[]) => reduce(s, ...actions);
const key = (k: readonly [string, Key]): AppAction => ({ type: "key", input: k[0], key: k[1] });
const ctrl = (c: string): AppAction => key([c, inkKey({ ctrl: true })]);
const ctrlBackspace = key(["", inkKey({ backspace: true, ctrl: true })]);
const type = (text: string): AppAction[] => [...text].map((c) => key(K.char(c)));

function loaded(print = false) {
  const sessions = makeSessions(4, { cwd: CWD }).map((x, i) => (i % 2 ? { ...x, name: `named ${i}` } : x));
  return { sessions, s: run(initialState({ launchCwd: CWD, print }), scanSummaries(sessions)) };
}

describe("pi's /resume keys", () => {
  it("Ctrl+N lists named sessions only, and says so; again, every session", () => {
    const { s } = loaded();
    const named = run(s, ctrl("n"));
    expect(named.namedOnly).toBe(true);
    expect(named.rows.map((r) => r.session.name)).toEqual(["named 1", "named 3"]);
    expect(named.scopeTotal).toBe(4);
    expect(named.status?.text).toBe("named sessions only");
    expect(run(named, ctrl("n")).rows).toHaveLength(4);
    // In the picker's field too.
    expect(run(loaded(true).s, ctrl("n")).rows).toHaveLength(2);
  });
  it("Ctrl+P shows the file paths, in the list and the picker", () => {
    const { s } = loaded();
    expect(run(s, ctrl("p")).showPaths).toBe(true);
    expect(run(s, ctrl("p"), ctrl("p")).showPaths).toBe(false);
    expect(run(loaded(true).s, ctrl("p")).showPaths).toBe(true);
  });
  it("Ctrl+Backspace deletes when the query is empty; with a query it deletes a word of it", () => {
    const { s, sessions } = loaded(true);
    const asked = run(s, ctrlBackspace);
    expect(modeOf(asked)).toBe("confirmDelete");
    expect(asked.stack.at(-1)).toMatchObject({ kind: "delete", targets: [{ path: sessions[0].path }] });
    const typed = run(s, ...type("foo bar"), ctrlBackspace);
    expect(modeOf(typed)).toBe("search");
    expect(typed.search.value).toBe("foo ");
    // From the list, with a kept query, it says why instead.
    const kept = run(loaded().s, key(K.char("/")), ...type("session"), key(K.enter), ctrlBackspace);
    expect(modeOf(kept)).toBe("list");
    expect(kept.status?.text).toMatch(/query is not empty/);
  });
  it("the picker: Ctrl+D asks pi's question over the field, Enter deletes and the field is back; Ctrl+R renames", () => {
    const { s, sessions } = loaded(true);
    const asked = run(s, ...type("session"), ctrl("d"));
    expect(modeOf(asked)).toBe("confirmDelete");
    const done = run(asked, key(K.enter));
    expect(modeOf(done)).toBe("search");
    expect(done.effects.at(-1)).toMatchObject({ type: "trash", targets: [{ path: sessions[0].path }] });
    expect(done.search.value).toBe("session");
    expect(modeOf(run(s, ctrl("r")))).toBe("rename");
    // Typed letters stay text: d and r are typed, not keys.
    expect(run(s, ...type("dr")).search.value).toBe("dr");
  });
  it("with no session listed, Ctrl+D says why (the footer leaves it out)", () => {
    const empty = run(initialState({ launchCwd: CWD, print: true }), scanSummaries([]));
    const d = run(empty, ctrl("d"));
    expect(modeOf(d)).toBe("search");
    expect(d.status?.text).toMatch(/no session/);
  });
});
