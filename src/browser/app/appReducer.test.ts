import type { Key } from "../keys/key.js";
import { describe, expect, it } from "vitest";
import { QUIT } from "../core/outcome.js";
import { K } from "../../../test/helpers/keys.js";
import { makeProbe, makeSessions, makeSummary } from "../../../test/helpers/sessions.js";
import type { CommandId } from "../keys/commands.js";
import { type AppAction, type AppState, initialState, modeOf, selectedSession, update } from "./appReducer.js";
import { mergeBatch } from "../list/sessions.js";
import {
  reduce,
  scanSummaries,
  scanProbes,
  scanDiagnostics,
  scanDone,
  scanDiscovered,
} from "../../../test/helpers/update.js";

const CWD = "/home/u/proj";
const run = (s: AppState, ...actions: AppAction[]) => reduce(s, ...actions);
const cmd = (command: CommandId): AppAction => ({ type: "command", command });
const key = (k: readonly [string, Key]): AppAction => ({ type: "key", input: k[0], key: k[1] });
const type = (text: string): AppAction[] => [...text].map((c) => key(K.char(c)));
const paths = (s: AppState) => s.rows.map((r) => r.session.path);

function loaded(n = 5, over = {}) {
  const sessions = makeSessions(n, { cwd: CWD, ...over });
  return { sessions, s: run(initialState({ launchCwd: CWD }), scanSummaries(sessions)) };
}

describe("sessions", () => {
  it("merges probes, then summaries; a later probe never overwrites a summary", () => {
    const p = makeProbe({ path: "/x", cwd: CWD, firstMessage: "probe" });
    const sum = makeSummary({ path: "/x", cwd: CWD, firstMessage: "full" });
    let s = run(initialState({ launchCwd: CWD }), scanProbes([p]));
    expect(s.sessions.get("/x")?.provisional).toBe(true);
    s = run(s, scanSummaries([sum]), scanProbes([{ ...p, firstMessage: "late" }]));
    expect(s.sessions.get("/x")?.firstMessage).toBe("full");
    expect(s.sessions.get("/x")?.provisional).toBeUndefined();
    expect(s.scan).toMatchObject({ probed: 2, scanned: 1 });
  });
  it("marks an unreadable session instead of dropping it", () => {
    const m = mergeBatch(
      new Map(),
      [makeProbe({ path: "/u" })],
      [],
      [{ path: "/u", kind: "unreadable", reason: "EACCES" }],
    );
    expect(m.get("/u")?.unreadable).toBe("EACCES");
  });
  it("drops a probed session that pi 1.5.2 does not list (found only when read in full)", () => {
    const m = mergeBatch(
      new Map(),
      [makeProbe({ path: "/n" }), makeProbe({ path: "/k" })],
      [],
      [{ path: "/n", kind: "not-listed-by-pi", reason: "content null" }],
    );
    expect([...m.keys()]).toEqual(["/k"]);
  });
  it("returns the same map for an empty batch", () => {
    const m = new Map();
    expect(mergeBatch(m)).toBe(m);
  });
});

describe("selection", () => {
  it("starts on the first row and moves with clamping", () => {
    const { s, sessions } = loaded(5);
    expect(selectedSession(s)?.path).toBe(sessions[0].path);
    expect(run(s, cmd("list.up")).cursor).toBe(0);
    expect(run(s, cmd("list.down"), cmd("list.down")).cursor).toBe(2);
    expect(run(s, cmd("list.bottom")).cursor).toBe(4);
    expect(run(s, cmd("list.bottom"), cmd("list.down")).cursor).toBe(4);
    expect(run(s, cmd("list.bottom"), cmd("list.top")).cursor).toBe(0);
  });
  it("pages by the viewport height", () => {
    const { s } = loaded(30);
    const t = run(s, { type: "viewport", pageSize: 10 }, cmd("list.pageDown"));
    expect(t.cursor).toBe(9);
    expect(run(t, cmd("list.pageDown"), cmd("list.pageDown"), cmd("list.pageDown")).cursor).toBe(29);
    expect(run(t, cmd("list.pageUp")).cursor).toBe(0);
  });
  it("stays on the same session while newer rows arrive", () => {
    const { s, sessions } = loaded(5);
    const t = run(s, cmd("list.down"), cmd("list.down"));
    const chosen = sessions[2].path;
    const newer = makeSummary({ cwd: CWD, modified: new Date(Date.now() + 1e6) });
    const u = run(t, scanSummaries([newer]));
    expect(paths(u)[0]).toBe(newer.path);
    expect(selectedSession(u)?.path).toBe(chosen);
    expect(u.cursor).toBe(3);
  });
  it("keeps the top row selected while rows arrive, until the user moves", () => {
    const older = makeSummary({ path: "/old", cwd: CWD, modified: new Date("2026-01-01T00:00:00Z") });
    const newer = makeSummary({ path: "/new", cwd: CWD, modified: new Date("2026-02-01T00:00:00Z") });
    let s = run(initialState({ launchCwd: CWD }), scanSummaries([older]));
    expect(selectedSession(s)?.path).toBe("/old");
    s = run(s, scanSummaries([newer]));
    expect(paths(s)).toEqual(["/new", "/old"]);
    expect(selectedSession(s)?.path).toBe("/new");
    expect(s.cursor).toBe(0);
  });
  it("stays on the same session across a re-sort", () => {
    const { s } = loaded(5);
    const t = run(s, cmd("list.down"));
    const chosen = selectedSession(t)!.path;
    expect(selectedSession(run(t, cmd("sort.cycle")))!.path).toBe(chosen);
  });
  it("falls back to the same height when the session is filtered out", () => {
    const { s } = loaded(5);
    const t = run(s, cmd("list.down"), cmd("list.down"), cmd("search.start"), ...type('"session 4"'));
    expect(paths(t)).toHaveLength(1);
    expect(t.cursor).toBe(0);
    expect(selectedSession(t)?.firstMessage).toBe("session 4");
  });
  it("does nothing on an empty list", () => {
    const s = initialState({ launchCwd: CWD });
    expect(run(s, cmd("list.down"), cmd("list.bottom")).cursor).toBe(0);
    expect(run(s, cmd("session.resume")).effects).toEqual([]);
  });
});

describe("scope", () => {
  const here = makeSummary({ cwd: CWD });
  const there = makeSummary({ cwd: "/elsewhere" });
  it("defaults to this folder when it has sessions", () => {
    const s = run(initialState({ launchCwd: CWD }), scanSummaries([here, there]));
    expect(s.scope).toBe("cwd");
    expect(paths(s)).toEqual([here.path]);
    expect(s.scopeTotal).toBe(1);
  });
  it("falls back to all when the scan finds nothing here", () => {
    let s = run(initialState({ launchCwd: CWD }), scanSummaries([there]));
    expect(s.scope).toBe("cwd");
    s = run(s, scanDone());
    expect(s.scope).toBe("all");
    expect(paths(s)).toEqual([there.path]);
  });
  it("decides once every discovered file was probed", () => {
    const s = run(initialState({ launchCwd: CWD }), scanDiscovered(1), scanProbes([makeProbe({ cwd: "/x" })]));
    expect(s.scope).toBe("all");
  });
  it("starts in all with --all, and Tab toggles", () => {
    const s = run(initialState({ launchCwd: CWD, all: true }), scanSummaries([here, there]));
    expect(s.scope).toBe("all");
    expect(paths(s)).toHaveLength(2);
    const t = run(s, key(K.tab));
    expect(t.scope).toBe("cwd");
    expect(paths(t)).toEqual([here.path]);
  });
  it("keeps the user's choice when later rows arrive", () => {
    const s = run(initialState({ launchCwd: CWD }), cmd("scope.toggle"), scanSummaries([here]));
    expect(s.scope).toBe("all");
  });
  it("treats a trailing slash as the same folder", () => {
    const s = run(initialState({ launchCwd: CWD + "/" }), scanSummaries([here]));
    expect(paths(s)).toEqual([here.path]);
  });
});

describe("sort", () => {
  it("cycles through every order and threads forks last", () => {
    let s = loaded(2).s;
    const seen = [s.sort];
    for (let i = 0; i < 6; i++) seen.push((s = run(s, key(K.char("s")))).sort);
    expect(seen).toEqual(["recent", "created", "name", "messages", "size", "threaded", "recent"]);
    expect(run(s, key(K.ctrlS)).sort).toBe("created");
  });
  it("nests forks in threaded order", () => {
    const parent = makeSummary({ path: "/p", cwd: CWD, modified: new Date(1000) });
    const fork = makeSummary({ path: "/f", cwd: CWD, parentSessionPath: "/p", modified: new Date(2000) });
    const s = run(initialState({ launchCwd: CWD, sort: "threaded" }), scanSummaries([fork, parent]));
    expect(s.rows.map((r) => r.prefix + r.session.path)).toEqual(["/p", "└─ /f"]);
  });
});

describe("search", () => {
  it("enters search mode, types, filters, and Enter keeps the query", () => {
    const { s } = loaded(12);
    let t = run(s, key(K.char("/")), ...type('"session 11"'));
    expect(modeOf(t)).toBe("search");
    expect(t.search).toEqual({ value: '"session 11"', cursor: 12 });
    expect(paths(t)).toHaveLength(1);
    t = run(t, key(K.enter));
    expect(modeOf(t)).toBe("list");
    expect(t.search.value).toBe('"session 11"');
    expect(paths(t)).toHaveLength(1);
  });
  it("types letters that are commands in the list", () => {
    const { s } = loaded(2);
    const t = run(s, key(K.char("/")), ...type("jkqsG?/"));
    expect(t.search.value).toBe("jkqsG?/");
    expect(t.effects).toEqual([]);
    expect(t.sort).toBe("recent");
  });
  it("Esc in search clears the query and returns to the list", () => {
    const { s } = loaded(3);
    const t = run(s, key(K.char("/")), ...type("session 1"), key(K.escape));
    expect(modeOf(t)).toBe("list");
    expect(t.search.value).toBe("");
    expect(paths(t)).toHaveLength(3);
  });
  it("Backspace (ink's delete flag and backspace flag), Ctrl+U and Ctrl+W edit", () => {
    const { s } = loaded(1);
    const t = run(s, key(K.char("/")), ...type("foo bar"));
    expect(run(t, key(K.backspace)).search.value).toBe("foo ba");
    expect(run(t, key(K.ctrlH)).search.value).toBe("foo ba");
    expect(run(t, key(K.ctrlW)).search.value).toBe("foo ");
    expect(run(t, key(K.ctrlU)).search.value).toBe("");
  });
  it("moves the cursor and inserts there", () => {
    const { s } = loaded(1);
    const t = run(s, key(K.char("/")), ...type("ac"), key(K.left), key(K.char("b")));
    expect(t.search).toEqual({ value: "abc", cursor: 2 });
    expect(run(t, key(K.ctrlA)).search.cursor).toBe(0);
    expect(run(t, key(K.ctrlA), key(K.ctrlE)).search.cursor).toBe(3);
    expect(run(t, key(K.right), key(K.right)).search.cursor).toBe(3);
  });
  it("ignores other ctrl and alt combinations", () => {
    const { s } = loaded(1);
    const t = run(s, key(K.char("/")), key(K.altJ), key(["x", { ...K.ctrlC[1], input: "x" } as unknown as Key]));
    expect(t.search.value).toBe("");
  });
  it("arrows still move the list while searching", () => {
    const { s } = loaded(3);
    expect(run(s, key(K.char("/")), key(K.down)).cursor).toBe(1);
  });
  it("Esc in the list clears a kept query, and never quits: it says q does", () => {
    const { s } = loaded(3);
    const t = run(s, key(K.char("/")), ...type("session 1"), key(K.enter), key(K.escape));
    expect(t.search.value).toBe("");
    expect(t.effects).toEqual([]);
    const again = run(t, key(K.escape), key(K.escape));
    expect(again.effects).toEqual([]);
    expect(again.status?.text).toBe("q quits");
  });
  it("Esc after a search keeps the session the cursor is on (lazygit, k9s): /, Enter, j, Esc", () => {
    const { s } = loaded(12);
    const searched = run(s, key(K.char("/")), ...type("session 1"), key(K.enter), key(K.char("j")));
    const on = searched.selectedPath;
    expect(searched.cursor).toBe(1);
    expect(paths(searched).length).toBeLessThan(12);
    const back = run(searched, key(K.escape));
    expect(back.search.value).toBe("");
    expect(paths(back)).toHaveLength(12);
    expect(back.selectedPath).toBe(on);
    expect(paths(back)[back.cursor]).toBe(on);
    // Esc while still typing keeps the hit it was on, too.
    const typing = run(s, key(K.char("/")), ...type("session 1"), key(K.down), key(K.escape));
    expect(typing.selectedPath).toBe(paths(run(s, key(K.char("/")), ...type("session 1"), key(K.down)))[1]);
  });
  it("every change of the query selects the best hit, as fzf does, wherever the cursor was", () => {
    const { s } = loaded(5);
    const moved = run(s, key(K.char("j")), key(K.char("j")), key(K.char("j")));
    expect(moved.cursor).toBe(3);
    const t = run(moved, key(K.char("/")), ...type("sess"));
    expect(t.rows.length).toBe(5);
    expect(t.cursor).toBe(0);
    expect(selectedSession(t)?.path).toBe(t.rows[0].session.path);
    // Moving after the query keeps the user's choice; the next change of the query selects the best again.
    const chosen = run(t, key(K.down));
    expect(chosen.cursor).toBe(1);
    expect(run(chosen, ...type("i")).cursor).toBe(0);
  });
  it("an invalid regex matches nothing and keeps the error", () => {
    const { s } = loaded(3);
    const t = run(s, key(K.char("/")), ...type("re:(["));
    expect(paths(t)).toEqual([]);
    expect(t.query.error).toMatch(/invalid/);
  });
});

describe("help overlay", () => {
  it("opens with ?, scrolls, and closes with Esc, q or ?", () => {
    const { s } = loaded(3);
    const t = run(s, key(K.char("?")));
    expect(modeOf(t)).toBe("help");
    expect(run(t, key(K.down), key(K.down)).helpTop).toBe(2);
    expect(run(t, key(K.down), key(K.down)).cursor).toBe(0);
    for (const k of [K.escape, K.char("q"), K.char("?")]) {
      const u = run(t, key(k));
      expect(modeOf(u)).toBe("list");
      expect(u.effects).toEqual([]);
    }
  });

  it("/ filters it: letters are typed (q, j, ? too), Enter keeps the filter, Esc clears it, Esc again closes", () => {
    const { s } = loaded(3);
    let t = run(s, key(K.char("?")), key(K.down), key(K.char("/")));
    expect(modeOf(t)).toBe("helpFilter");
    expect(t.helpTop).toBe(0);
    t = run(t, ...type("q?j"), key(K.backspace), key(K.backspace), key(K.backspace), ...type("page"), key(K.enter));
    expect(modeOf(t)).toBe("help");
    expect(t.stack.at(-1)).toMatchObject({ kind: "help", filter: { value: "page" }, typing: false });
    t = run(t, key(K.escape));
    expect(modeOf(t)).toBe("help");
    expect(t.stack.at(-1)).toMatchObject({ kind: "help", filter: undefined });
    expect(modeOf(run(t, key(K.escape)))).toBe("list");
    // ? and q close it with a filter kept, as they close or leave every other view.
    for (const k of ["?", "q"]) expect(modeOf(run(t, ...type("/page"), key(K.enter), key(K.char(k))))).toBe("list");
    // Esc while typing clears the filter and stays in the help.
    const typing = run(s, key(K.char("?")), key(K.char("/")), ...type("x"), key(K.escape));
    expect(modeOf(typing)).toBe("help");
    expect(typing.stack.at(-1)).toMatchObject({ kind: "help", filter: undefined });
  });

  it("moves with ↓, ↑ and the page keys while the filter is typed; a letter is typed, even j", () => {
    const { s } = loaded(3);
    const t = run(s, key(K.char("?")), key(K.char("/")), ...type("e"));
    const moved = run(t, key(K.down), key(K.down), key(K.down), key(K.up));
    expect(modeOf(moved)).toBe("helpFilter");
    expect(moved.helpTop).toBe(2);
    expect(moved.stack.at(-1)).toMatchObject({ filter: { value: "e" } });
    expect(run(t, key(K.pageDown)).helpTop).toBe(Math.max(1, s.pageSize - 1));
    const typed = run(moved, ...type("j"));
    expect(typed.stack.at(-1)).toMatchObject({ filter: { value: "ej" } });
    expect(typed.helpTop).toBe(0); // a new filter starts at the top
    expect(moved.cursor).toBe(0); // the list behind did not move
  });
});

describe("the status line", () => {
  it("a note answers one key: the next key takes it away", () => {
    const { s } = loaded(3);
    const noted = run(s, key(K.escape));
    expect(noted.status).toEqual({ text: "q quits", tone: "note" });
    expect(run(noted, key(K.down)).status).toBeUndefined();
    // A key that does nothing at all takes it away too (it never reads as that key's answer).
    expect(run(noted, key(K.tab), key(K.tab)).status).toBeUndefined();
  });

  it("a result stays on its view and goes when another view opens or closes; results arriving later keep it", () => {
    const { s, sessions } = loaded(3);
    const done = { ...s, status: { text: "copied the file path", tone: "info" as const } };
    expect(run(done, key(K.down)).status).toBe(done.status);
    expect(run(done, key(K.char("?"))).status).toBeUndefined();
    expect(run(done, key(K.char("x"))).status).toBeUndefined();
    const inHelp = { ...run(s, key(K.char("?"))), status: done.status };
    expect(run(inHelp, key(K.down)).status).toBe(done.status);
    expect(run(inHelp, key(K.escape)).status).toBeUndefined();
    // A result arriving later (a scan's rows) is no key: kept.
    expect(run(done, { type: "scan", events: [{ kind: "summaries", items: [sessions[0]] }] }).status).toBe(done.status);
  });
});

describe("quit and resume intents", () => {
  it("q and Ctrl+C request quit (Ctrl+C as an interrupt, exit 130); Esc does not", () => {
    const { s } = loaded(1);
    expect(run(s, key(K.char("q"))).effects).toEqual([{ type: "exit", outcome: { kind: "quit" } }]);
    expect(run(s, key(K.ctrlC)).effects).toEqual([{ type: "exit", outcome: { kind: "quit", interrupted: true } }]);
    expect(run(s, key(K.escape)).effects).toEqual([]);
  });
  it("Ctrl+C closes the action menu (as it cancels a dialog); the next one quits", () => {
    const { s } = loaded(2);
    const menu = run(s, key(K.char("x")));
    expect(modeOf(menu)).toBe("menu");
    const closed = run(menu, key(K.ctrlC));
    expect(modeOf(closed)).toBe("list");
    expect(closed.effects).toEqual([]);
    expect(run(closed, key(K.ctrlC)).effects).toEqual([{ type: "exit", outcome: { kind: "quit", interrupted: true } }]);
  });
  it("Ctrl+C quits from search mode too", () => {
    const { s } = loaded(1);
    expect(run(s, key(K.char("/")), key(K.ctrlC)).effects[0]).toMatchObject({ type: "exit" });
  });
  it("Enter requests a resume with the session's cwd", () => {
    const { s, sessions } = loaded(2);
    const t = run(s, key(K.down), key(K.enter));
    expect(t.effects).toEqual([{ type: "resume", path: sessions[1].path, cwd: CWD, launchCwd: CWD }]);
  });
  it("Enter in print mode requests printing the path", () => {
    const sess = makeSummary({ cwd: CWD });
    const s = run(initialState({ launchCwd: CWD, print: true }), scanSummaries([sess]), key(K.enter));
    expect(s.effects).toEqual([{ type: "exit", outcome: { kind: "print", path: sess.path } }]);
  });
  it("the picker is pi's /resume and fzf: one Esc cancels the pick, whatever is typed", () => {
    const sess = makeSummary({ cwd: CWD });
    const p = run(initialState({ launchCwd: CWD, print: true }), scanSummaries([sess]));
    expect(run(p, key(K.escape)).effects).toEqual([QUIT]);
    const typed = run(p, key(K.char("x")), key(K.escape));
    expect(typed.effects).toEqual([QUIT]);
    // Outside the picker Esc never quits.
    const { s } = loaded(1);
    expect(run(s, key(K.escape), key(K.escape)).effects).toEqual([]);
  });
  it("nothing pages on Ctrl+D or Ctrl+U: PgDn and Ctrl+F page the list, the help and the usage view (QA)", () => {
    const { s } = loaded(40);
    const ctrlD = key(["d", { ...K.char("d")[1], ctrl: true }]);
    const ctrlF = key(["f", { ...K.char("f")[1], ctrl: true }]);
    // In the search field Ctrl+D is pi's delete, Ctrl+U clears the field.
    const asked = run(s, { type: "viewport", pageSize: 10 }, key(K.char("/")), ctrlD);
    expect(modeOf(asked)).toBe("confirmDelete");
    expect(asked.cursor).toBe(0);
    const help = run(s, { type: "viewport", pageSize: 10 }, key(K.char("?")));
    expect(run(help, ctrlD).helpTop).toBe(0);
    expect(run(help, key(K.ctrlU)).helpTop).toBe(0);
    expect(run(help, key(K.pageDown)).helpTop).toBe(9);
    expect(run(help, ctrlF).helpTop).toBe(9);
    const usage = run(s, key(K.char("U")), { type: "usage.view", maxTop: 30, page: 10 });
    expect(run(usage, ctrlD).stack.at(-1)).toMatchObject({ kind: "usage", top: 0 });
    expect(run(usage, key(K.ctrlU)).stack.at(-1)).toMatchObject({ kind: "usage", top: 0 });
    expect(run(usage, key(K.pageDown)).stack.at(-1)).toMatchObject({ kind: "usage", top: 9 });
    const list = run(s, { type: "viewport", pageSize: 10 });
    expect(run(list, key(K.ctrlU)).cursor).toBe(0);
    expect(run(list, key(K.pageDown)).cursor).toBe(9);
    expect(run(list, ctrlF).cursor).toBe(9);
  });
  it("returns effects beside the state and never keeps them in it", () => {
    const [after, effects] = update(initialState({ launchCwd: CWD }), key(K.char("q")));
    expect(effects).toEqual([{ type: "exit", outcome: { kind: "quit" } }]);
    expect(Object.keys(after)).not.toContain("effects");
    // Nothing is left to run twice: the same key asks again, once.
    expect(update(after, key(K.char("q")))[1]).toEqual(effects);
  });
});

describe("scan progress", () => {
  it("records discovery, diagnostics and completion", () => {
    const s = run(
      initialState({ launchCwd: CWD }),
      scanDiscovered(10),
      scanDiagnostics([{ path: "/bad", kind: "not-a-session", reason: "x" }]),
      scanDone("boom"),
    );
    expect(s.scan).toEqual({
      discovered: 10,
      probed: 0,
      scanned: 0,
      diagnostics: 1,
      skipped: [{ path: "/bad", kind: "not-a-session", reason: "x" }],
      done: true,
      error: "boom",
    });
  });
  it("! opens the skipped files (scrolled by the list's moves) and Esc, q or ! close it; with none it says so", () => {
    const bad = Array.from({ length: 30 }, (_, i) => ({
      path: `/bad${i}`,
      kind: "not-a-session" as const,
      reason: "x",
    }));
    const { s } = loaded(3);
    const none = run(s, key(K.char("!")));
    expect(modeOf(none)).toBe("list");
    expect(none.status?.text).toBe("no file was skipped");
    const skipped = run(s, scanDiagnostics(bad));
    const open = run(skipped, key(K.char("!")));
    expect(modeOf(open)).toBe("skipped");
    expect(run(open, key(K.char("j")), key(K.char("j"))).helpTop).toBe(2);
    expect(run(open, key(K.char("j"))).cursor).toBe(skipped.cursor);
    for (const k of [K.escape, K.char("q"), K.char("!")]) expect(modeOf(run(open, key(k)))).toBe("list");
  });
  it("ignores a viewport report that changes nothing", () => {
    const { s } = loaded(1);
    expect(update(s, { type: "viewport", pageSize: s.pageSize })[0]).toBe(s);
  });
});

describe("start options (config, pi extension)", () => {
  it("starts with the configured scope and sort, a search and the tool-output toggle", () => {
    const s = initialState({ launchCwd: CWD, scope: "all", sort: "size", query: "auth bug", searchToolOutput: true });
    expect(s.scope).toBe("all");
    expect(s.scopeSettled).toBe(true);
    expect(s.sort).toBe("size");
    expect(s.search.value).toBe("auth bug");
    expect(s.query.terms).toHaveLength(2);
    expect(s.fullText.includeTools).toBe(true);
    const auto = initialState({ launchCwd: CWD, scope: "auto" });
    expect(auto.scopeSettled).toBe(false);
  });
});

describe("the preview's room", () => {
  it("P toggles it, + and - step its share within bounds", () => {
    const s = initialState({ launchCwd: CWD });
    const hidden = run(s, key(K.char("P")));
    expect(hidden.previewShare).toBe(0);
    expect(run(hidden, key(K.char("P"))).previewShare).toBe(s.previewShare);
    expect(run(s, key(K.char("+"))).previewShare).toBeGreaterThan(s.previewShare);
    expect(run(s, key(K.char("-"))).previewShare).toBeLessThan(s.previewShare);
    const most = run(s, ...Array.from({ length: 9 }, () => key(K.char("+"))));
    expect(run(most, key(K.char("+"))).previewShare).toBe(most.previewShare);
  });
});

describe("keys dropped before the first frame", () => {
  it("are said in the status line, as a note; none dropped says nothing", () => {
    const { s } = loaded(3);
    expect(run(s, { type: "keys.dropped", count: 3 }).status).toEqual({
      text: "the list changed as it loaded: 3 keys typed before it were not applied",
      tone: "note",
    });
    expect(run(s, { type: "keys.dropped", count: 1 }).status?.text).toMatch(/1 key typed before it was not applied/);
    expect(run(s, { type: "keys.dropped", count: 0 }).status).toBeUndefined();
  });
});
