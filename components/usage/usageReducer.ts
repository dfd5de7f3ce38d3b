import { USAGE_BYS } from "../../src/usage/aggregate.js";
import type { CommandId } from "../keys/commands.js";
import { type AppState, topLayer } from "../state/appState.js";
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

function setLayer(s: AppState, l: UsageLayer, next: Partial<UsageLayer>): AppState {
  const layer = { ...l, ...next };
  layer.top = Math.max(0, Math.min(layer.top, layer.maxTop));
  if (layer.top === l.top && layer.by === l.by && layer.metric === l.metric && layer.maxTop === l.maxTop && layer.page === l.page) return s;
  return { ...s, stack: [...s.stack.slice(0, -1), layer] };
}

export function usageReducer(s: AppState, a: UsageAction): AppState {
  const l = topLayer(s);
  return l?.kind === "usage" ? setLayer(s, l, { maxTop: Math.max(0, a.maxTop), page: Math.max(1, a.page) }) : s;
}

export function runUsageCommand(s: AppState, c: UsageCommandId): AppState {
  const l = topLayer(s);
  if (c === "usage.open") return l?.kind === "usage" ? s : { ...s, stack: [...s.stack, NEW_USAGE_LAYER] };
  if (l?.kind !== "usage") return s;
  const page = Math.max(1, l.page - 1);
  const at = USAGE_BYS.indexOf(l.by);
  switch (c) {
    case "usage.close":
      return { ...s, stack: s.stack.slice(0, -1) };
    case "usage.byDay":
      return setLayer(s, l, { by: "day", top: 0 });
    case "usage.byFolder":
      return setLayer(s, l, { by: "folder", top: 0 });
    case "usage.byModel":
      return setLayer(s, l, { by: "model", top: 0 });
    case "usage.nextBy":
      return setLayer(s, l, { by: USAGE_BYS[(at + 1) % USAGE_BYS.length], top: 0 });
    case "usage.prevBy":
      return setLayer(s, l, { by: USAGE_BYS[(at + USAGE_BYS.length - 1) % USAGE_BYS.length], top: 0 });
    case "usage.metric":
      return setLayer(s, l, { metric: l.metric === "cost" ? "tokens" : "cost" });
    case "usage.up":
      return setLayer(s, l, { top: Math.max(0, l.top - 1) });
    case "usage.down":
      return setLayer(s, l, { top: l.top + 1 });
    case "usage.pageUp":
      return setLayer(s, l, { top: Math.max(0, l.top - page) });
    case "usage.pageDown":
      return setLayer(s, l, { top: l.top + page });
    case "usage.top":
      return setLayer(s, l, { top: 0 });
    case "usage.bottom":
      return setLayer(s, l, { top: Number.MAX_SAFE_INTEGER });
  }
}
