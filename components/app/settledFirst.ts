import { type AppAction, type AppState, modeOf, update } from "../../src/browser/app/appReducer.js";
import { computeLayout } from "../layout/layout.js";

/** The list's search bar takes a row (the tree and the reader have their own search line). */
export function searchBarShown(s: AppState): boolean {
  return !s.tree && !s.reader && (modeOf(s) === "search" || s.search.value !== "");
}

/** The list's page and visibility on a terminal of this size: what App tells the state. */
export function viewportFor(s: AppState, size: { columns: number; rows: number }): AppAction {
  const layout = computeLayout({ ...size, searchBar: searchBarShown(s), previewShare: s.previewShare });
  return { type: "viewport", pageSize: layout.list.height, visible: !layout.tooSmall };
}

/**
 * The state the browser mounts with: as its first effects leave it (the list's page for
 * this terminal, where deletes go), so that those, said again once it is up, change nothing.
 * Otherwise they cost a render and a whole frame of the same screen right after the first,
 * at launch, when the main thread has the most to do (other machines' answers wait for it).
 */
export function settledFirst(s: AppState, size: { columns: number; rows: number }, trashDir: string | null): AppState {
  const [sized] = update(s, viewportFor(s, size));
  return update(sized, { type: "lifecycle.setup", trashDir })[0];
}
