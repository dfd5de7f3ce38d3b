import { purgeFile, trashedFromStore } from "../../actions/trash/index.js";
import { readHeaderCwd } from "../../store/header-cwd.js";
import type { TrashAction, TrashEffect, TrashItem } from "./trashTypes.js";

/** What the trash view reaches outside the state; tests pass fakes. */
export interface TrashIO {
  list(storeDir: string): TrashItem[];
  purge(record: TrashItem): void;
}

export const realTrashIO: TrashIO = {
  // The log names each session's folder; a record of an older version is read for it.
  list: (dir) => trashedFromStore(dir).map((r) => (r.cwd ? r : { ...r, cwd: readHeaderCwd(r.trashedFile) })),
  purge: purgeFile,
};

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Carries out one trash effect; its result comes back as a trash.* action. */
export function runTrashEffect(e: TrashEffect, io: TrashIO, dispatch: (a: TrashAction) => void): void {
  switch (e.type) {
    case "trash.list":
      try {
        dispatch({ type: "trash.listed", records: io.list(e.storeDir) });
      } catch (err) {
        dispatch({ type: "trash.listed", records: [], error: `cannot read the trash log: ${message(err)}` });
      }
      return;
    case "trash.purge":
      try {
        io.purge(e.record);
        dispatch({ type: "trash.purged", record: e.record });
      } catch (err) {
        dispatch({ type: "trash.purged", record: e.record, error: `not deleted: ${message(err)}` });
      }
      return;
  }
}
