import { purgeFile, trashedFromStore } from "../../actions/trash/index.js";
import { readHeaderCwd } from "../../store/header-cwd.js";
import type { TrashAction, TrashEffect, TrashItem } from "./trashTypes.js";

/** What the trash view reaches outside the state; tests pass fakes. */
export interface TrashIO {
  list(storeDir: string): TrashItem[];
  /** Other machines' trashed sessions (src/remote): one answer per host, each shown as it comes. */
  listHosts?(): Promise<TrashItem[]>[];
  /** Deletes for good: here at once, on a host when its answer comes. */
  purge(record: TrashItem): void | Promise<void>;
}

export const realTrashIO: TrashIO = {
  // The log names each session's folder; a record of an older version is read for it.
  list: (dir) => trashedFromStore(dir).map((r) => (r.cwd ? r : { ...r, cwd: readHeaderCwd(r.trashedFile) })),
  purge: purgeFile,
};

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Newest first, as the log reads: deletedAt is a local time written the same way everywhere. */
const newestFirst = (items: TrashItem[]) =>
  items.sort((a, b) => (a.deletedAt < b.deletedAt ? 1 : a.deletedAt > b.deletedAt ? -1 : 0));

/** The latest look at the trash: a host's answer to an earlier one is not shown over it. */
let looks = 0;

/** Carries out one trash effect; its result comes back as a trash.* action. */
export function runTrashEffect(e: TrashEffect, io: TrashIO, dispatch: (a: TrashAction) => void): void {
  switch (e.type) {
    case "trash.list": {
      let all: TrashItem[] = [];
      try {
        all = io.list(e.storeDir);
        dispatch({ type: "trash.listed", records: all });
      } catch (err) {
        dispatch({ type: "trash.listed", records: [], error: `cannot read the trash log: ${message(err)}` });
      }
      const look = ++looks;
      // Each host's trash joins the view when it answers; one that does not has none shown.
      for (const answer of io.listHosts?.() ?? [])
        answer.then(
          (items) => {
            if (look !== looks || items.length === 0) return;
            all = newestFirst([...all, ...items]);
            dispatch({ type: "trash.listed", records: all });
          },
          () => {},
        );
      return;
    }
    case "trash.purge": {
      const done = () => dispatch({ type: "trash.purged", record: e.record });
      const failed = (err: unknown) =>
        dispatch({ type: "trash.purged", record: e.record, error: `not deleted: ${message(err)}` });
      try {
        const r = io.purge(e.record);
        if (r instanceof Promise) r.then(done, failed);
        else done();
      } catch (err) {
        failed(err);
      }
      return;
    }
  }
}
