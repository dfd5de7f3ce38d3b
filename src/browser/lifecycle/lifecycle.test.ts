import type { Key } from "../keys/key.js";
import { describe, expect, it } from "vitest";
import { K, key as mkKey } from "../../../test/helpers/keys.js";
import { makeSessions } from "../../../test/helpers/sessions.js";
import type { TrashRecord } from "../../actions/trash/log.js";
import { type AppAction, type AppState, initialState, modeOf, selectedSession, topLayer } from "../app/appReducer.js";
import type { LifecycleLayer } from "./lifecycle.js";
import { reduce, scanSummaries } from "../../../test/helpers/update.js";

const CWD = "/home/u/proj";
const run = (s: AppState, ...actions: AppAction[]) => reduce(s, ...actions);
const key = (k: readonly [string, Key]): AppAction => ({ type: "key", input: k[0], key: k[1] });
const type = (text: string): AppAction[] => [...text].map((c) => key(K.char(c)));
const paths = (s: AppState) => s.rows.map((r) => r.session.path);
const ctrl = (c: string): AppAction => ({ type: "key", input: c, key: mkKey({ ctrl: true }) });
/** d opens the delete confirmation. */
const DKEY: AppAction = { type: "key", input: "d", key: mkKey() };
const SPACE = key(K.char(" "));
const DEL: AppAction = { type: "key", input: "", key: mkKey({ delete: true }) };

function loaded(n = 5, trashDir: string | null = "/home/u/.local/share/Trash") {
  const sessions = makeSessions(n, { cwd: CWD });
  const s = run(initialState({ launchCwd: CWD }), scanSummaries(sessions), { type: "lifecycle.setup", trashDir });
  return { sessions, s };
}

const layer = (s: AppState) => topLayer(s) as LifecycleLayer;
const lastEffect = (s: AppState) => s.effects[s.effects.length - 1];
const record = (original: string): TrashRecord => ({
  original,
  trashedFile: `/trash/files/${original.split("/").pop()}`,
  infoFile: "/trash/info/x.trashinfo",
  deletedAt: "2025-01-15T12:00:00",
  batch: "b1",
  bytes: 2048,
});

describe("rename", () => {
  it("Ctrl+R and r open a dialog pre-filled with the current name; Esc cancels", () => {
    const { s, sessions } = loaded(3);
    const named = run(s, { type: "lifecycle.renamed", path: sessions[0].path, name: "old name" });
    for (const open of [ctrl("r"), key(K.char("r"))]) {
      const d = run(named, open);
      expect(modeOf(d)).toBe("rename");
      expect(layer(d)).toMatchObject({
        kind: "rename",
        path: sessions[0].path,
        input: { value: "old name", cursor: 8 },
      });
      expect(modeOf(run(d, key(K.escape)))).toBe("list");
      expect(run(d, key(K.escape)).effects).toEqual([]);
    }
  });

  it("types every key of a fast burst, inserts a paste whole, edits, and Enter requests the rename", () => {
    const { s, sessions } = loaded(3);
    let d = run(s, key(K.char("r")), ...type("qjk rs"), { type: "key", input: "pasted\nchunk", key: mkKey() });
    expect(layer(d)).toMatchObject({ input: { value: "qjk rspasted chunk" } });
    d = run(d, key(K.backspace), key(K.ctrlW));
    expect(layer(d)).toMatchObject({ input: { value: "qjk rspasted " } });
    d = run(d, key(K.enter));
    expect(modeOf(d)).toBe("list");
    expect(lastEffect(d)).toMatchObject({ type: "rename", path: sessions[0].path, name: "qjk rspasted " });
  });

  it("an empty name is submitted too (it clears); the result updates the row at once", () => {
    const { s, sessions } = loaded(3);
    let d = run(
      s,
      { type: "lifecycle.renamed", path: sessions[0].path, name: "x" },
      key(K.char("r")),
      key(K.ctrlU),
      key(K.enter),
    );
    expect(lastEffect(d)).toMatchObject({ type: "rename", name: "" });
    d = run(d, { type: "lifecycle.renamed", path: sessions[0].path, name: "" });
    expect(d.sessions.get(sessions[0].path)?.name).toBeUndefined();
    expect(d.status?.text).toBe("Name cleared");
    d = run(d, { type: "lifecycle.renamed", path: sessions[0].path, name: "new" });
    expect(d.sessions.get(sessions[0].path)?.name).toBe("new");
    expect(selectedSession(d)?.path).toBe(sessions[0].path);
  });

  it("writes nothing when the name stays as it is, or when there is no name to clear (QA)", () => {
    const { s, sessions } = loaded(3);
    const unnamed = run(s, key(K.char("r")), key(K.enter));
    expect(unnamed.effects).toEqual([]);
    expect(unnamed.status).toEqual({ text: "No name to clear", tone: "note" });
    const named = run(s, { type: "lifecycle.renamed", path: sessions[0].path, name: "keep me" });
    const same = run(named, key(K.char("r")), key(K.char(" ")), key(K.enter));
    expect(same.effects).toEqual([]);
    expect(same.status).toEqual({ text: "Name unchanged", tone: "note" });
    expect(lastEffect(run(named, key(K.char("r")), key(K.char("!")), key(K.enter)))).toMatchObject({
      type: "rename",
      name: "keep me!",
    });
  });

  it("a failure shows in the status line until it fades, keys or not", () => {
    const { s } = loaded(2);
    const d = run(s, { type: "lifecycle.failed", message: "rename failed: boom" });
    expect(d.status).toEqual({ text: "rename failed: boom", tone: "error" });
    const moved = run(d, key(K.down));
    expect(moved.status).toBe(d.status);
    expect(run(moved, { type: "status.fade", status: { ...d.status! } }).status).toBe(d.status); // another message
    expect(run(moved, { type: "status.fade", status: d.status! }).status).toBeUndefined();
  });
});

describe("delete", () => {
  it("titles the dialogs of a session whose name and first message sanitize to nothing without its raw id", () => {
    const hostile = makeSessions(1, {
      cwd: CWD,
      id: "\x1b]0;PWNED\x07\x1b]52;c;QQ==\x07",
      name: "\x1b]0;x\x07",
      firstMessage: "\x1b[2J",
    });
    const s = run(initialState({ launchCwd: CWD }), scanSummaries(hostile), {
      type: "lifecycle.setup",
      trashDir: "/t",
    });
    const del = layer(run(s, DKEY));
    const ren = layer(run(s, key(K.char("r"))));
    for (const title of [
      (del as { targets: { title?: string }[] }).targets[0].title,
      (ren as { title?: string }).title,
    ]) {
      expect(title).toBe("(no messages)");
    }
  });

  it("Ctrl+D (pi's app.session.delete), d and Delete ask pi's question; Enter or y requests the trash", () => {
    const { s, sessions } = loaded(3);
    for (const open of [ctrl("d"), DKEY, DEL]) {
      const d = run(s, open);
      expect(modeOf(d)).toBe("confirmDelete");
      expect(layer(d)).toMatchObject({
        kind: "delete",
        step: "confirm",
        bulk: false,
        targets: [{ path: sessions[0].path, bytes: 2048, mtimeMs: sessions[0].mtimeMs, title: "session 0" }],
      });
      for (const yes of [key(K.enter), key(K.char("y"))]) {
        const c = run(d, yes);
        expect(modeOf(c)).toBe("list");
        expect(lastEffect(c)).toMatchObject({ type: "trash", targets: [{ path: sessions[0].path }] });
      }
    }
  });

  it("Esc, n or Ctrl+C cancel it; every other key is ignored while it asks (a held Ctrl+D asks once)", () => {
    const { s } = loaded(3);
    for (const k of [key(K.char("n")), key(K.escape), key(K.ctrlC)]) {
      const c = run(s, ctrl("d"), k);
      expect(modeOf(c)).toBe("list");
      expect(c.effects).toEqual([]);
      expect(c.status?.text).toBe("not deleted");
    }
    for (const k of [ctrl("d"), ctrl("d"), key(K.char("q")), key(K.down), key(K.char("Y")), DKEY, key(K.char("x"))]) {
      const c = run(s, ctrl("d"), k);
      expect(modeOf(c)).toBe("confirmDelete");
      expect(c.stack.filter((l) => l.kind === "delete")).toHaveLength(1);
      expect(c.effects).toEqual([]);
    }
  });

  it("D keeps its two questions (y, then Y): Enter answers neither, any other key cancels", () => {
    const { s } = loaded(3);
    const d = run(s, key(K.char("D")));
    expect(modeOf(d)).toBe("confirm");
    for (const k of [key(K.enter), key(K.escape), key(K.char("n")), key(K.char("Y")), ctrl("d")]) {
      const c = run(d, k);
      expect(modeOf(c)).toBe("list");
      expect(c.effects).toEqual([]);
    }
    const second = run(d, key(K.char("y")));
    expect(modeOf(second)).toBe("confirmPermanent");
    expect(run(second, key(K.enter)).effects).toEqual([]);
    expect(modeOf(run(second, key(K.enter)))).toBe("list");
  });

  it("without a trash: a second confirmation that takes only Y (not y), then the permanent delete", () => {
    const { s, sessions } = loaded(3, null);
    let d = run(s, DKEY, key(K.char("y")));
    expect(layer(d)).toMatchObject({ kind: "delete", step: "permanent" });
    expect(d.effects).toEqual([]);
    expect(modeOf(run(d, key(K.enter)))).toBe("list");
    expect(run(d, key(K.enter)).effects).toEqual([]);
    expect(run(d, key(K.char("y"))).effects).toEqual([]);
    expect(modeOf(run(d, key(K.char("y"))))).toBe("list");
    d = run(d, key(K.char("Y")));
    expect(lastEffect(d)).toMatchObject({ type: "deletePermanently", targets: [{ path: sessions[0].path }] });
    d = run(d, { type: "lifecycle.deleted", paths: [sessions[0].path] });
    expect(paths(d)).not.toContain(sessions[0].path);
    expect(d.status?.text).toBe("Deleted 1 session permanently");
    expect(d.undo).toBeUndefined();
  });

  it("a trashed session leaves the list, the selection stays at its height, and the batch is kept for undo", () => {
    const { s, sessions } = loaded(4);
    let d = run(s, key(K.down), DKEY, key(K.char("y")));
    d = run(d, { type: "lifecycle.trashed", targets: [], records: [record(sessions[1].path)] });
    expect(paths(d)).toEqual([sessions[0].path, sessions[2].path, sessions[3].path]);
    expect(selectedSession(d)?.path).toBe(sessions[2].path);
    expect(d.undo?.records).toHaveLength(1);
    expect(d.undo?.sessions[0].path).toBe(sessions[1].path);
    expect(d.status).toEqual({ text: "Moved 1 session to the trash — u to undo", tone: "info" });
  });

  it("a changed file is refused with the message and no permanent offer", () => {
    const { s, sessions } = loaded(2);
    const t = [{ path: sessions[0].path, sessionId: "x", title: "t", bytes: 1, mtimeMs: 1 }];
    const d = run(s, {
      type: "lifecycle.trashed",
      targets: t,
      records: [],
      failed: { path: sessions[0].path, message: "changed since you confirmed", offerPermanent: false },
    });
    expect(d.status).toEqual({ text: "changed since you confirmed", tone: "error" });
    expect(modeOf(d)).toBe("list");
    expect(paths(d)).toContain(sessions[0].path);
  });

  it("when the trash cannot take the files, the rest are offered for a permanent delete behind the second confirmation", () => {
    const { s, sessions } = loaded(3);
    const t = sessions.map((x) => ({
      path: x.path,
      sessionId: x.id,
      title: x.firstMessage,
      bytes: x.bytes,
      mtimeMs: x.mtimeMs,
    }));
    const d = run(s, {
      type: "lifecycle.trashed",
      targets: t,
      records: [record(sessions[0].path)],
      failed: { path: sessions[1].path, message: "no usable trash", offerPermanent: true },
    });
    expect(d.status?.tone).toBe("error");
    expect(d.status?.text).toContain("no usable trash");
    expect(d.status?.text).toContain("Moved 1 session to the trash");
    expect(layer(d)).toMatchObject({
      kind: "delete",
      step: "permanent",
      reason: "no usable trash",
      targets: [{ path: sessions[1].path }, { path: sessions[2].path }],
    });
    expect(run(d, key(K.char("y"))).effects).toEqual([]);
    expect(lastEffect(run(d, key(K.char("Y"))))).toMatchObject({ type: "deletePermanently" });
  });
});

describe("marks and bulk", () => {
  it("Space marks and moves down, Space again unmarks; Esc clears the marks (and never quits)", () => {
    const { s, sessions } = loaded(4);
    let d = run(s, SPACE, SPACE);
    expect([...d.marks]).toEqual([sessions[0].path, sessions[1].path]);
    expect(selectedSession(d)?.path).toBe(sessions[2].path);
    d = run(d, key(K.up), SPACE);
    expect([...d.marks]).toEqual([sessions[0].path]);
    d = run(d, key(K.escape));
    expect(d.marks.size).toBe(0);
    expect(d.effects).toEqual([]);
    expect(run(d, key(K.escape)).effects).toEqual([]);
  });

  it("d with marks confirms all marked once, and the batch is one undo", () => {
    const { s, sessions } = loaded(5);
    let d = run(s, SPACE, key(K.down), SPACE, SPACE, DKEY);
    expect(layer(d)).toMatchObject({ kind: "delete", bulk: true });
    expect((layer(d) as { targets: { path: string }[] }).targets.map((t) => t.path)).toEqual([
      sessions[0].path,
      sessions[2].path,
      sessions[3].path,
    ]);
    d = run(d, key(K.char("y")));
    const e = lastEffect(d);
    expect(e).toMatchObject({ type: "trash" });
    const recs = [0, 2, 3].map((i) => record(sessions[i].path));
    d = run(d, { type: "lifecycle.trashed", targets: [], records: recs });
    expect(paths(d)).toEqual([sessions[1].path, sessions[4].path]);
    expect(d.marks.size).toBe(0);
    expect(d.status?.text).toBe("Moved 3 sessions to the trash — u to undo");
    d = run(d, key(K.char("u")));
    expect(lastEffect(d)).toMatchObject({ type: "restore", records: recs });
    d = run(d, { type: "lifecycle.restored", paths: recs.map((r) => r.original), errors: [] });
    expect(paths(d)).toEqual(sessions.map((x) => x.path));
    expect(d.undo).toBeUndefined();
    expect(d.status?.text).toBe("Restored 3 sessions");
  });

  it("d with marks out of view (another search) counts them for the dialog to say so", () => {
    const { s, sessions } = loaded(3);
    const marked = run(s, SPACE, SPACE);
    expect(marked.marks.size).toBe(2);
    expect(layer(run(marked, DKEY))).not.toHaveProperty("hidden");
    // Narrowed to the third session only: the two marked ones are out of view.
    const narrowed = { ...marked, rows: marked.rows.filter((r) => r.session.path === sessions[2].path) };
    expect(layer(run(narrowed, DKEY))).toMatchObject({ kind: "delete", bulk: true, hidden: 2 });
  });

  it("undo with nothing to undo says so; a refused restore keeps that record for another try", () => {
    const { s, sessions } = loaded(3);
    expect(run(s, key(K.char("u"))).status?.text).toBe("nothing to undo in this run · X shows the trash");
    let d = run(s, {
      type: "lifecycle.trashed",
      targets: [],
      records: [record(sessions[0].path), record(sessions[1].path)],
    });
    d = run(d, {
      type: "lifecycle.restored",
      paths: [sessions[1].path],
      errors: [`${sessions[0].path} exists again; not overwriting it`],
    });
    expect(d.status?.tone).toBe("error");
    expect(d.status?.text).toContain("Restored 1 session; ");
    expect(d.status?.text).toContain("exists again");
    expect(d.undo?.records.map((r) => r.original)).toEqual([sessions[0].path]);
    expect(paths(d)).toContain(sessions[1].path);
  });
});

describe("live store changes", () => {
  it("apply updates and removals without moving the selection off its session", () => {
    const { s, sessions } = loaded(4);
    let d = run(s, key(K.down), key(K.down));
    expect(selectedSession(d)?.path).toBe(sessions[2].path);
    // sessions[3] is appended to: it becomes the most recent and moves to the top.
    const grown = {
      ...sessions[3],
      bytes: 4096,
      mtimeMs: sessions[0].mtimeMs + 1000,
      modified: new Date(sessions[0].mtimeMs + 1000),
      messageCount: 9,
    };
    const fresh = {
      ...sessions[0],
      path: "/store/new.jsonl",
      id: "new",
      firstMessage: "brand new",
      mtimeMs: sessions[0].mtimeMs + 2000,
      modified: new Date(sessions[0].mtimeMs + 2000),
    };
    d = run(d, { type: "store.changes", updated: [grown, fresh], removed: [sessions[1].path], diagnostics: [] });
    expect(paths(d)).toEqual(["/store/new.jsonl", sessions[3].path, sessions[0].path, sessions[2].path]);
    expect(selectedSession(d)?.path).toBe(sessions[2].path);
    expect(d.cursor).toBe(3);
    expect(d.sessions.get(sessions[3].path)?.messageCount).toBe(9);
  });

  it("a removed selected session leaves the selection at the same height; removed marks go too", () => {
    const { s, sessions } = loaded(3);
    let d = run(s, SPACE, key(K.up));
    expect(d.marks.size).toBe(1);
    d = run(d, { type: "store.changes", updated: [], removed: [sessions[0].path, "/not/known"], diagnostics: [] });
    expect(selectedSession(d)?.path).toBe(sessions[1].path);
    expect(d.marks.size).toBe(0);
  });
});

describe("the session open in pi (extension)", () => {
  it("is never deleted, alone or among marks", () => {
    const sessions = makeSessions(3, { cwd: CWD });
    const s = run(initialState({ launchCwd: CWD, openInPi: sessions[0].path }), scanSummaries(sessions), {
      type: "lifecycle.setup",
      trashDir: "/t",
    });
    const open = s.rows.findIndex((r) => r.session.path === sessions[0].path);
    const onIt = run(s, ...Array.from({ length: open }, () => key(K.char("j"))), DKEY);
    expect(topLayer(onIt)).toBeUndefined();
    expect(onIt.status?.text).toMatch(/open in pi/);
    const marked = run(s, ...Array.from({ length: 3 }, () => SPACE), DKEY);
    expect(topLayer(marked)).toBeUndefined();
    expect(marked.effects).toEqual([]);
  });
});

describe("own writes are not pi's", () => {
  it("a label or resume-at-entry written from the tree is remembered for the next write's check", () => {
    const { s, sessions } = loaded(1);
    const stamp = { bytes: 9000, mtimeMs: Date.now() - 100 };
    const n = run(
      s,
      { type: "command", command: "tree.open" },
      {
        type: "tree.written",
        path: sessions[0].path,
        write: { op: "label", entryId: "e1", label: "x" },
        wrote: true,
        stamp,
      },
    );
    expect(n.ownWrites.get(sessions[0].path)).toEqual(stamp);
    expect(n.sessions.get(sessions[0].path)).toMatchObject(stamp);
  });
});
