import { describe, expect, it } from "vitest";
import type { Key } from "../keys/key.js";
import { K } from "../../../test/helpers/keys.js";
import { makeSessions } from "../../../test/helpers/sessions.js";
import { reduce, scanSummaries, type Traced } from "../../../test/helpers/update.js";
import type { TrashRecord } from "../../actions/trash/log.js";
import { type AppAction, type AppState, initialState, modeOf, topLayer } from "../app/appReducer.js";
import type { TrashLayer } from "./trashTypes.js";

const CWD = "/home/u/proj";
const STORE = "/home/u/.pi/agent/sessions";
const run = (s: AppState, ...actions: AppAction[]) => reduce(s, ...actions);
const key = (k: readonly [string, Key]): AppAction => ({ type: "key", input: k[0], key: k[1] });
const ch = (c: string) => key(K.char(c));
const rec = (n: number): TrashRecord => ({
  original: `${STORE}/--p--/s${n}.jsonl`,
  trashedFile: `/trash/files/s${n}.jsonl`,
  infoFile: `/trash/info/s${n}.jsonl.trashinfo`,
  deletedAt: "2026-11-20T12:00:00",
  batch: `b${n}`,
  title: `session ${n}`,
  bytes: 100 * n,
});
const RECORDS = [rec(3), rec(2), rec(1)];
const trash = (s: AppState) => topLayer(s) as TrashLayer;

function opened(records = RECORDS): Traced {
  const s = run(initialState({ launchCwd: CWD, storeDir: STORE }), scanSummaries(makeSessions(3, { cwd: CWD })));
  return run(s, ch("X"), { type: "trash.listed", records });
}

describe("the trash view", () => {
  it("X opens it and asks for this store's trashed sessions; q, Esc and X close it", () => {
    const s = run(initialState({ launchCwd: CWD, storeDir: STORE }), ch("X"));
    expect(modeOf(s)).toBe("trash");
    expect(trash(s)).toMatchObject({ kind: "trash", items: null, cursor: 0 });
    expect(s.effects).toEqual([{ type: "trash.list", storeDir: STORE }]);
    for (const k of [ch("q"), key(K.escape), ch("X")]) expect(modeOf(run(s, k))).toBe("list");
  });

  it("moves within its rows; Ctrl+D neither pages nor deletes (PgDn and Ctrl+F page)", () => {
    let s = opened();
    s = run(s, ch("j"), ch("j"), ch("j"));
    expect(trash(s).cursor).toBe(2);
    s = run(s, ch("g"));
    expect(trash(s).cursor).toBe(0);
    s = run(s, { type: "key", input: "d", key: { ...K.char("d")[1], ctrl: true } });
    expect(trash(s).cursor).toBe(0);
    expect(s.effects.filter((e) => e.type !== "trash.list")).toEqual([]);
    s = run(s, { type: "key", input: "f", key: { ...K.char("f")[1], ctrl: true } });
    expect(trash(s).cursor).toBe(2);
  });

  it("pages by the rows the view shows, not the list's page", () => {
    const many = Array.from({ length: 30 }, (_, i) => rec(i + 1));
    const s = run(opened(many), { type: "viewport", pageSize: 20 });
    // The list's page of 20 until the view says it shows 6 rows: then a page moves 5.
    expect(trash(run(s, key(K.pageDown))).cursor).toBe(19);
    const shown = run(s, { type: "trash.view", page: 6 });
    expect(trash(run(shown, key(K.pageDown))).cursor).toBe(5);
    // Half a page has no key of its own now (Ctrl+D is pi's); bound in "keys", it moves half of that.
    expect(trash(run(shown, { type: "command", command: "trash.halfDown" })).cursor).toBe(3);
  });

  it("u restores the selected session through the lifecycle's restore, and the view is read again", () => {
    let s = run(opened(), ch("j"), ch("u"));
    expect(s.effects.at(-1)).toEqual({ type: "restore", records: [RECORDS[1]] });
    s = run(s, { type: "lifecycle.restored", paths: [RECORDS[1].original], errors: [] });
    expect(s.effects.at(-1)).toEqual({ type: "trash.list", storeDir: STORE });
    expect(s.status?.text).toBe("Restored 1 session");
    s = run(s, { type: "trash.listed", records: [RECORDS[0], RECORDS[2]] });
    expect(trash(s)).toMatchObject({ items: [RECORDS[0], RECORDS[2]], cursor: 1 });
  });

  it("D deletes for good only after y, then Y; Enter, y again or any other key cancels at either question", () => {
    const s = run(opened(), ch("D"));
    expect(modeOf(s)).toBe("trashConfirm");
    expect(trash(s).purge).toEqual({ step: 1, record: RECORDS[0] });
    for (const cancel of [key(K.enter), key(K.escape), ch("n"), ch("d")]) {
      const c1 = run(s, cancel);
      expect(modeOf(c1)).toBe("trash");
      expect(c1.status?.text).toBe("not deleted");
      const c2 = run(s, ch("y"), cancel);
      expect(modeOf(run(s, ch("y")))).toBe("trashConfirmPermanent");
      expect(modeOf(c2)).toBe("trash");
      expect(c2.effects.some((e) => e.type === "trash.purge")).toBe(false);
    }
    const asked = run(s, ch("y"));
    expect(trash(asked).purge?.step).toBe(2);
    expect(asked.effects.some((e) => e.type === "trash.purge")).toBe(false);
    // A held or double-tapped y cancels the second question.
    const repeated = run(asked, ch("y"));
    expect(repeated.effects.some((e) => e.type === "trash.purge")).toBe(false);
    expect(modeOf(repeated)).toBe("trash");
    const done = run(asked, ch("Y"));
    expect(done.effects.at(-1)).toEqual({ type: "trash.purge", record: RECORDS[0] });
    const after = run(done, { type: "trash.purged", record: RECORDS[0] });
    expect(trash(after).items).toEqual([RECORDS[1], RECORDS[2]]);
    expect(after.status?.text).toBe('Deleted "session 3" for good');
  });

  it("a delete for good on one machine keeps another's trashed file of the same path", () => {
    const there = { ...RECORDS[0], original: "/cache/remote/h/files/x.jsonl", host: "devbox" };
    const s = run(opened([RECORDS[0], there]), { type: "trash.purged", record: there });
    expect(trash(s).items).toEqual([RECORDS[0]]);
  });

  it("a delete for good that failed keeps the row and says why", () => {
    const s = run(opened(), { type: "trash.purged", record: RECORDS[0], error: "not deleted: it was replaced" });
    expect(trash(s).items).toHaveLength(3);
    expect(s.status).toEqual({ text: "not deleted: it was replaced", tone: "error" });
  });

  it("an empty trash says so on u and D, and the help opens at the trash's keys", () => {
    const s = opened([]);
    expect(run(s, ch("u")).status?.text).toBe("the trash is empty");
    expect(modeOf(run(s, ch("D")))).toBe("trash");
    expect(topLayer(run(s, ch("?")))).toMatchObject({ kind: "help", first: "trash" });
  });

  it("u in the list with nothing deleted in this run points at the trash view", () => {
    const s = run(initialState({ launchCwd: CWD, storeDir: STORE }), ch("u"));
    expect(s.status?.text).toContain("X shows the trash");
  });
});
