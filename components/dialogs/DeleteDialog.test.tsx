import { afterEach, describe, expect, it } from "vitest";
import type { TrashRecord } from "../../src/actions/trash/log.js";
import { act } from "react";
import type { StoreChanges } from "../../src/store/watch-store.js";
import { cleanupInk, press, renderApp, settle, typeText, waitForFrame } from "../../test/helpers/ink.js";
import type { WatchFn } from "../hooks/useStoreWatch.js";
import { RAW } from "../../test/helpers/keys.js";
import { makeSessions } from "../../test/helpers/sessions.js";
import type { LifecycleDeps } from "../../src/browser/lifecycle/lifecycleEffects.js";
import type { DeleteTarget } from "../../src/browser/lifecycle/lifecycle.js";
import { deleteLines } from "./DeleteDialog.js";

afterEach(cleanupInk);

const CWD = "/home/u/proj";
/** d opens the delete confirmation (Ctrl+D pages, as in the tree and the reader). */
const DELETE_KEY = "d";
const TRASH = "/home/u/.local/share/Trash";

function fakeLifecycle(trash: string | undefined, over: Partial<LifecycleDeps> = {}) {
  const calls = { trash: [] as DeleteTarget[][], permanent: [] as DeleteTarget[][], restored: [] as string[] };
  const deps: LifecycleDeps = {
    rename: async (_path, name) => ({ name }),
    trash: (targets) => {
      calls.trash.push(targets);
      const records: TrashRecord[] = targets.map((t) => ({
        original: t.path,
        trashedFile: `${TRASH}/files/x`,
        infoFile: `${TRASH}/info/x.trashinfo`,
        deletedAt: "",
        batch: "b",
        bytes: t.bytes,
      }));
      return { records };
    },
    deletePermanently: (targets) => {
      calls.permanent.push(targets);
      return targets.map((t) => t.path);
    },
    restore: (r) => {
      calls.restored.push(r.original);
    },
    trashLocation: () => trash,
    ...over,
  };
  return { deps, calls };
}

describe("deleteLines", () => {
  const t: DeleteTarget = { path: "/s/a.jsonl", sessionId: "a", title: "fix the parser", bytes: 2048, mtimeMs: 0 };
  it("says where the file goes", () => {
    const text = deleteLines({ step: "confirm", targets: [t], bulk: false, trashDir: TRASH, now: 60_000 }).map(
      (l) => l.text,
    );
    expect(text).toContain('Delete session "fix the parser"?');
    expect(text).toContain(`Move to trash (${TRASH})`);
    expect(text.join("\n")).not.toMatch(/permanently|pi may have it open/);
  });
  it("without a trash says Delete permanently and that it will ask again; warns about a recent write", () => {
    const text = deleteLines({ step: "confirm", targets: [t], bulk: false, trashDir: null, now: 5_000 })
      .map((l) => l.text)
      .join("\n");
    expect(text).toContain("Delete permanently");
    expect(text).toContain("asked again");
    expect(text).toContain("pi may have it open");
  });
  it("summarises a bulk delete: count and total size", () => {
    const text = deleteLines({
      step: "confirm",
      targets: [t, { ...t, path: "/s/b" }, { ...t, path: "/s/c" }],
      bulk: true,
      trashDir: TRASH,
      now: 60_000,
    }).map((l) => l.text);
    expect(text[0]).toBe("Delete 3 sessions (6.0 KB)?");
  });
  it("says when marked sessions are not in the list as it is now", () => {
    const three = [t, { ...t, path: "/s/b" }, { ...t, path: "/s/c" }];
    const lines = (hidden: number) =>
      deleteLines({ step: "confirm", targets: three, bulk: true, trashDir: TRASH, now: 60_000, hidden }).map(
        (l) => l.text,
      );
    expect(lines(1)).toContain("⚠ 1 of them is not in the list now (marked in another folder or search).");
    expect(lines(2)).toContain("⚠ 2 of them are not in the list now (marked in another folder or search).");
    expect(lines(3)).toContain("⚠ None of them is in the list now (marked in another folder or search).");
    expect(lines(0).join("\n")).not.toContain("in the list now");
  });
});

describe("DeleteDialog in the app", () => {
  it("names the session and the trash; y moves it and u brings it back", async () => {
    const sessions = makeSessions(3, { cwd: CWD });
    const life = fakeLifecycle(TRASH);
    const { r } = await renderApp({ sessions, deps: { lifecycle: life.deps } });
    await press(r, DELETE_KEY);
    const f = r.lastFrame()!;
    expect(f).toContain('Delete session "session 0"?');
    expect(f).toContain(`Move to trash (${TRASH})`);
    expect(f).toContain("▸ Enter or y delete  ·  Esc or n cancel");
    await press(r, "y");
    await waitForFrame(r, (x) => x.includes("Moved 1 session to the trash — u to undo") && !x.includes("session 0"));
    expect(life.calls.trash).toEqual([
      [
        {
          path: sessions[0].path,
          sessionId: sessions[0].id,
          title: "session 0",
          bytes: 2048,
          mtimeMs: sessions[0].mtimeMs,
          ours: false,
          // Its folder goes into the trash log with it (the trash view names it).
          cwd: CWD,
        },
      ],
    ]);
    await press(r, "u");
    await waitForFrame(r, (x) => x.includes("Restored 1 session") && x.includes("session 0"));
    expect(life.calls.restored).toEqual([sessions[0].path]);
  });

  it("Ctrl+D asks pi's question: other keys wait, Enter moves it to the trash", async () => {
    const sessions = makeSessions(2, { cwd: CWD });
    const life = fakeLifecycle(TRASH);
    const { r } = await renderApp({ sessions, deps: { lifecycle: life.deps } });
    await press(r, "\x04", "\x04", "j", "x");
    expect(r.lastFrame()).toContain('Delete session "session 0"?');
    expect(life.calls.trash).toEqual([]);
    await press(r, "\r");
    await waitForFrame(r, (x) => x.includes("Moved 1 session to the trash — u to undo"));
    expect(life.calls.trash.map((batch) => batch.map((t) => t.path))).toEqual([[sessions[0].path]]);
  });

  it("n or Esc cancels", async () => {
    const life = fakeLifecycle(TRASH);
    const { r } = await renderApp({ sessions: makeSessions(2, { cwd: CWD }), deps: { lifecycle: life.deps } });
    await press(r, DELETE_KEY, "n");
    expect(r.lastFrame()).toContain("not deleted");
    expect(r.lastFrame()).toContain("session 0");
    await press(r, DELETE_KEY, "\x1b");
    await waitForFrame(r, (x) => !x.includes("Delete session"));
    expect(life.calls.trash).toEqual([]);
  });

  it("without a trash: Delete permanently, then a second confirmation that only Y passes (y y cancels)", async () => {
    const sessions = makeSessions(2, { cwd: CWD });
    const life = fakeLifecycle(undefined);
    const { r } = await renderApp({ sessions, deps: { lifecycle: life.deps } });
    await press(r, DELETE_KEY);
    expect(r.lastFrame()).toContain("Delete permanently (there is no trash here)");
    await press(r, "y");
    let f = r.lastFrame()!;
    expect(f).toContain('Delete "session 0" permanently?');
    expect(f).toContain("This cannot be undone.");
    expect(f).toContain("Y (capital) delete permanently");
    expect(life.calls.permanent).toEqual([]);
    await press(r, RAW.enter);
    expect(r.lastFrame()).toContain("not deleted");
    expect(life.calls.permanent).toEqual([]);
    // A double-tapped or held y answers the first question only.
    await press(r, DELETE_KEY, "y", "y");
    expect(r.lastFrame()).toContain("not deleted");
    expect(life.calls.permanent).toEqual([]);
    await press(r, DELETE_KEY, "y", "Y");
    f = await waitForFrame(r, (x) => x.includes("Deleted 1 session permanently"));
    expect(f).not.toContain("session 0");
    expect(life.calls.trash).toEqual([]);
    expect(life.calls.permanent).toHaveLength(1);
  });

  it("a file changed since it was shown is refused with the message; a trash that cannot take it offers the second confirmation", async () => {
    const sessions = makeSessions(2, { cwd: CWD });
    const changed = fakeLifecycle(TRASH, {
      trash: (t) => ({
        records: [],
        failed: {
          path: t[0].path,
          error: Object.assign(
            new Error(`${t[0].path} changed since you confirmed (pi may be writing to it); not deleted`),
            { name: "DeleteRefused" },
          ),
        },
      }),
    });
    const a = await renderApp({ sessions, deps: { lifecycle: changed.deps } });
    await press(a.r, DELETE_KEY, "y");
    const f = await waitForFrame(a.r, (x) => x.includes("changed since you confirmed"));
    expect(f).toContain("session 0");
    expect(f).not.toContain("permanently?");
    await cleanupInk();

    const full = fakeLifecycle(TRASH, {
      trash: (t) => ({
        records: [],
        failed: {
          path: t[0].path,
          error: Object.assign(new Error("cannot move to the trash: EXDEV"), { name: "TrashUnavailable" }),
        },
      }),
    });
    const b = await renderApp({ sessions, deps: { lifecycle: full.deps } });
    await press(b.r, DELETE_KEY, "y");
    await waitForFrame(
      b.r,
      (x) =>
        x.includes('Delete "session 0" permanently?') &&
        x.includes("Cannot move to the trash: cannot move to the trash: EXDEV"),
    );
    await press(b.r, "Y");
    await waitForFrame(b.r, (x) => x.includes("Deleted 1 session permanently"));
    expect(full.calls.permanent).toHaveLength(1);
  });

  it("warns when the file changed in the last 10 seconds", async () => {
    const now = Date.now();
    const sessions = makeSessions(1, { cwd: CWD, mtimeMs: now - 2000, modified: new Date(now - 2000) });
    const { r } = await renderApp({ sessions, deps: { lifecycle: fakeLifecycle(TRASH).deps } });
    await press(r, DELETE_KEY);
    expect(r.lastFrame()).toContain("pi may have it open");
  });
});

describe("our own writes", () => {
  /** A store that pi does not touch: after each own write the watcher sees the file as the write left it. */
  function ownWriteWorld(now: number) {
    const made = makeSessions(2, { cwd: CWD, mtimeMs: now - 3_600_000, modified: new Date(now - 3_600_000) });
    // sessions[0] is the newest, so it is the selected top row.
    const sessions = [made[0], { ...made[1], mtimeMs: now - 7_200_000, modified: new Date(now - 7_200_000) }];
    const written = { bytes: sessions[0].bytes + 120, mtimeMs: now - 500 };
    let onChanges: ((c: StoreChanges) => void) | undefined;
    const watch: WatchFn = (_dir, _known, cb) => {
      onChanges = cb;
      return {
        refresh: async () =>
          onChanges?.({ updated: [{ ...sessions[0], name: "renamed", ...written }], removed: [], diagnostics: [] }),
        close: () => {},
      };
    };
    return {
      sessions,
      written,
      watch,
      changedByPi: () =>
        onChanges?.({
          updated: [{ ...sessions[0], name: "renamed", bytes: written.bytes + 300, mtimeMs: now - 100 }],
          removed: [],
          diagnostics: [],
        }),
    };
  }

  it("a rename does not make the next delete warn that pi may have the file open", async () => {
    const w = ownWriteWorld(Date.now());
    const life = fakeLifecycle(TRASH, { stamp: () => w.written });
    const { r } = await renderApp({ sessions: w.sessions, deps: { lifecycle: life.deps, watch: w.watch } });
    await press(r, "\x12");
    await typeText(r, "renamed");
    await press(r, RAW.enter);
    await waitForFrame(r, (x) => x.includes("Renamed to"));
    await settle(20);
    await press(r, DELETE_KEY);
    const f = await waitForFrame(r, (x) => x.includes("Delete session"));
    expect(f).not.toContain("pi may have it open");
    await press(r, "n");
    // A change after ours is someone else's: warn again.
    await act(async () => w.changedByPi());
    await press(r, DELETE_KEY);
    expect(await waitForFrame(r, (x) => x.includes("Delete session"))).toContain("pi may have it open");
  });
});

describe("marks", () => {
  it("Space marks rows with a glyph and counts them in the header; one summary confirmation deletes them all; u restores the batch; Esc clears marks", async () => {
    const sessions = makeSessions(5, { cwd: CWD });
    const life = fakeLifecycle(TRASH);
    const { r } = await renderApp({ sessions, deps: { lifecycle: life.deps } });
    await press(r, " ", RAW.down, " ", " ");
    let f = r.lastFrame()!;
    expect(f).toContain("3 marked");
    const rowOf = (name: string) => f.split("\n").find((l) => l.includes(name)) ?? "";
    expect(rowOf("session 0")).toMatch(/✓ session 0/);
    expect(rowOf("session 1")).not.toContain("✓");
    expect(rowOf("session 2")).toContain("✓");
    await press(r, DELETE_KEY);
    f = r.lastFrame()!;
    expect(f).toContain("Delete 3 sessions (6.0 KB)?");
    await press(r, "y");
    f = await waitForFrame(r, (x) => x.includes("Moved 3 sessions to the trash — u to undo"));
    expect(life.calls.trash).toHaveLength(1);
    expect(life.calls.trash[0]).toHaveLength(3);
    expect(f).not.toContain("session 0");
    expect(f).not.toContain("marked");
    await press(r, "u");
    f = await waitForFrame(r, (x) => x.includes("Restored 3 sessions"));
    for (const i of [0, 2, 3]) expect(f).toContain(`session ${i}`);
    await press(r, " ");
    expect(r.lastFrame()).toContain("1 marked");
    await press(r, RAW.escape);
    expect(r.lastFrame()).not.toContain("marked");
  });
});
