import { USAGE_BYS } from "../../usage/aggregate.js";
import type { CommandId } from "../keys/commands.js";
import { NEW_USAGE_LAYER, type UsageLayer } from "./usageState.js";

/** The usage view's commands (`usage.*`), inside the app's reducer. */
export type UsageCommandId = Extract<CommandId, `usage.${string}`>;

export function isUsageCommand(c: CommandId): c is UsageCommandId {
  return c.startsWith("usage.");
}

/** The view tells the reducer how far it can scroll (it depends on the screen and the data). */
export type UsageAction = { type: "usage.view"; maxTop: number; page: number };

export function isUsageAction(a: { type: string }): a is UsageAction {
  return a.type === "usage.view";
}

/*
 * The usage view's own reducer: it takes the view's layer (its whole state) and gives the
 * next one; the app puts it back on the stack (src/browser/app/appReducer.ts).
 */

/** `l` changed by `next`, scrolled within its rows; `l` itself when nothing changed. */
function setLayer(l: UsageLayer, next: Partial<UsageLayer>): UsageLayer {
  const layer = { ...l, ...next };
  layer.top = Math.max(0, Math.min(layer.top, layer.maxTop));
  if (
    layer.top === l.top &&
    layer.by === l.by &&
    layer.metric === l.metric &&
    layer.maxTop === l.maxTop &&
    layer.page === l.page
  )
    return l;
  return layer;
}

export function usageReducer(l: UsageLayer, a: UsageAction): UsageLayer {
  return setLayer(l, { maxTop: Math.max(0, a.maxTop), page: Math.max(1, a.page) });
}

/** The view a command opens (`usage.open`) */
export const openUsage = (): UsageLayer => NEW_USAGE_LAYER;

/** A command on the open view: the next layer, or null when it closes. */
export function runUsageCommand(l: UsageLayer, c: Exclude<UsageCommandId, "usage.open">): UsageLayer | null {
  const page = Math.max(1, l.page - 1);
  const at = USAGE_BYS.indexOf(l.by);
  switch (c) {
    case "usage.close":
      return null;
    case "usage.byDay":
      return setLayer(l, { by: "day", top: 0 });
    case "usage.byFolder":
      return setLayer(l, { by: "folder", top: 0 });
    case "usage.byModel":
      return setLayer(l, { by: "model", top: 0 });
    case "usage.nextBy":
      return setLayer(l, { by: USAGE_BYS[(at + 1) % USAGE_BYS.length], top: 0 });
    case "usage.prevBy":
      return setLayer(l, { by: USAGE_BYS[(at + USAGE_BYS.length - 1) % USAGE_BYS.length], top: 0 });
    case "usage.metric":
      return setLayer(l, { metric: l.metric === "cost" ? "tokens" : "cost" });
    case "usage.up":
      return setLayer(l, { top: Math.max(0, l.top - 1) });
    case "usage.down":
      return setLayer(l, { top: l.top + 1 });
    case "usage.pageUp":
      return setLayer(l, { top: Math.max(0, l.top - page) });
    case "usage.pageDown":
      return setLayer(l, { top: l.top + page });
    case "usage.halfUp":
      return setLayer(l, { top: Math.max(0, l.top - Math.max(1, Math.floor(l.page / 2))) });
    case "usage.halfDown":
      return setLayer(l, { top: l.top + Math.max(1, Math.floor(l.page / 2)) });
    case "usage.top":
      return setLayer(l, { top: 0 });
    case "usage.bottom":
      return setLayer(l, { top: Number.MAX_SAFE_INTEGER });
  }
}
