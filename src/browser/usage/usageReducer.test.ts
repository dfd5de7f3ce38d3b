import { describe, expect, it } from "vitest";
import { initialState, modeOf, topLayer } from "../app/appReducer.js";
import type { AppState } from "../app/appState.js";
import type { CommandId } from "../keys/commands.js";
import { K } from "../../../test/helpers/keys.js";
import { reduce } from "../../../test/helpers/update.js";

const run = (s: AppState, ...cs: CommandId[]) => cs.reduce((x, command) => reduce(x, { type: "command", command }), s);
const layer = (s: AppState) => {
  const l = topLayer(s);
  if (l?.kind !== "usage") throw new Error("no usage layer");
  return l;
};

describe("the usage view's reducer", () => {
  const s0 = initialState({ launchCwd: "/p" });
  it("opens over the list by day, and closes back to it", () => {
    const s = run(s0, "usage.open");
    expect(modeOf(s)).toBe("usage");
    expect(layer(s)).toMatchObject({ by: "day", metric: "cost", top: 0 });
    expect(run(s, "usage.open").stack).toHaveLength(1);
    expect(modeOf(run(s, "usage.close"))).toBe("list");
  });
  it("switches grouping with d/f/m and cycles with Tab both ways; c switches the metric", () => {
    const s = run(s0, "usage.open");
    expect(layer(run(s, "usage.byModel")).by).toBe("model");
    expect(layer(run(s, "usage.byFolder")).by).toBe("folder");
    expect(layer(run(s, "usage.byModel", "usage.byDay")).by).toBe("day");
    expect(layer(run(s, "usage.nextBy")).by).toBe("folder");
    expect(layer(run(s, "usage.nextBy", "usage.nextBy", "usage.nextBy")).by).toBe("day");
    expect(layer(run(s, "usage.prevBy")).by).toBe("model");
    expect(layer(run(s, "usage.metric")).metric).toBe("tokens");
    expect(layer(run(s, "usage.metric", "usage.metric")).metric).toBe("cost");
  });
  it("scrolls within what the view reported, and a new grouping starts at the top", () => {
    let s = run(s0, "usage.open");
    expect(layer(run(s, "usage.down")).top).toBe(0); // nothing to scroll yet
    s = reduce(s, { type: "usage.view", maxTop: 30, page: 10 });
    expect(layer(run(s, "usage.down", "usage.down")).top).toBe(2);
    expect(layer(run(s, "usage.pageDown")).top).toBe(9);
    expect(layer(run(s, "usage.bottom")).top).toBe(30);
    expect(layer(run(s, "usage.bottom", "usage.up")).top).toBe(29);
    expect(layer(run(s, "usage.bottom", "usage.pageUp", "usage.top")).top).toBe(0);
    expect(layer(run(s, "usage.bottom", "usage.byModel")).top).toBe(0);
    // less to show now: the offset follows
    expect(layer(reduce(run(s, "usage.bottom"), { type: "usage.view", maxTop: 4, page: 10 })).top).toBe(4);
  });
  it("the mouse wheel scrolls the chart, three rows a notch", () => {
    const s = reduce(run(s0, "usage.open"), { type: "usage.view", maxTop: 30, page: 10 });
    const wheel = (x: AppState, dir: 1 | -1) => reduce(x, { type: "mouse", kind: "wheel", pane: "list", dir, at: 0 });
    expect(layer(wheel(s, 1)).top).toBe(3);
    expect(layer(wheel(wheel(wheel(s, 1), 1), -1)).top).toBe(3);
    expect(layer(wheel(s, -1)).top).toBe(0);
  });
  it("routes keys in the view: U opens it from the list, Esc and q close it, ? opens the help over it", () => {
    const key = (s: AppState, c: string | readonly [string, import("../keys/key.js").Key]) => {
      const [input, k] = typeof c === "string" ? K.char(c) : c;
      return reduce(s, { type: "key", input, key: k });
    };
    let s = key(s0, "U");
    expect(modeOf(s)).toBe("usage");
    expect(layer(key(s, "3")).by).toBe("model");
    expect(modeOf(key(s, "?"))).toBe("help");
    expect(modeOf(key(key(s, "?"), "q"))).toBe("usage");
    expect(modeOf(key(s, "q"))).toBe("list");
    s = key(s, K.escape);
    expect(modeOf(s)).toBe("list");
    expect(s.effects).toEqual([]);
  });
});
