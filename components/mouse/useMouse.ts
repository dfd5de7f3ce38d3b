import { type Dispatch, type RefObject, useEffect, useRef } from "react";
import type { Layout } from "../layout/layout.js";
import { rowHeight } from "../list/snippetLine.js";
import type { AppAction } from "../../src/browser/app/appReducer.js";
import type { ListRow } from "../../src/browser/list/derive.js";
import { hitTest } from "./hitTest.js";
import { mouseActs, type MouseEvent } from "../../src/browser/keys/sgrMouse.js";

interface Screen {
  screen: "list" | "tree" | "reader";
  layout: Layout;
  listTop: RefObject<number>;
  rows: readonly ListRow[];
  /** Rows of the branch tree's view, when it is the screen. */
  treeRows?: number;
}

/**
 * Mouse reports (the "mouse" events of components/keys/keyStream.ts) as mouse actions:
 * the pane under the pointer is worked out here, against the screen as last drawn.
 */
export function useMouse(
  stdin: NodeJS.ReadableStream | undefined,
  dispatch: Dispatch<AppAction>,
  screen: Screen,
): void {
  const current = useRef(screen);
  current.current = screen;
  useEffect(() => {
    if (!stdin) return;
    const onMouse = (ev: MouseEvent) => {
      if (!mouseActs(ev)) return;
      const c = current.current;
      const hit = hitTest(ev.x, ev.y, {
        screen: c.screen,
        layout: c.layout,
        listTop: c.listTop.current ?? 0,
        rowCount: c.screen === "tree" ? (c.treeRows ?? 0) : c.rows.length,
        rowHeight: (i) => rowHeight(c.rows[i]),
      });
      if (ev.kind === "wheel")
        dispatch({ type: "mouse", kind: "wheel", pane: hit.pane, dir: ev.button < 0 ? -1 : 1, at: Date.now() });
      else dispatch({ type: "mouse", kind: "click", pane: hit.pane, row: hit.row, at: Date.now() });
    };
    stdin.on("mouse", onMouse);
    return () => void stdin.off("mouse", onMouse);
  }, [stdin, dispatch]);
}
