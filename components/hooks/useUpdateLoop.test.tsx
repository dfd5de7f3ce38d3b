import { Text } from "ink";
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, renderInk } from "../../test/helpers/ink.js";
import { type RunEffect, type Update, useUpdateLoop } from "./useUpdateLoop.js";

afterEach(cleanupInk);

type Action = { type: "add"; n: number } | { type: "echo"; n: number };
type Effect = { type: "echo"; n: number } | { type: "log"; text: string };

// Adding asks for an echo of the new total; an echo is logged.
const update: Update<number[], Action, Effect> = (s, a) =>
  a.type === "add"
    ? [[...s, a.n], [{ type: "echo", n: s.length + 1 }]]
    : [s, [{ type: "log", text: `echo ${a.n} after ${s.join(",")}` }]];

function Harness({ ran, out }: { ran: Effect[]; out: { dispatch?: (a: Action) => void } }) {
  const run: RunEffect<Action, Effect> = (e, dispatch) => {
    ran.push(e);
    // A synchronous result: it queues behind the action being handled, in order.
    if (e.type === "echo") dispatch({ type: "echo", n: e.n });
  };
  const [state, dispatch] = useUpdateLoop(update, () => [] as number[], run, START);
  out.dispatch = dispatch;
  return <Text>{state.join(",") || "empty"}</Text>;
}
const START: readonly Effect[] = [{ type: "log", text: "start" }];

describe("useUpdateLoop", () => {
  it("runs each returned effect once, in order, and draws the state", async () => {
    const ran: Effect[] = [];
    const out: { dispatch?: (a: Action) => void } = {};
    const r = await renderInk(<Harness ran={ran} out={out} />);
    expect(ran).toEqual([{ type: "log", text: "start" }]);
    await act(async () => {
      out.dispatch!({ type: "add", n: 7 });
      out.dispatch!({ type: "add", n: 9 });
    });
    expect(r.lastFrame()).toBe("7,9");
    expect(ran).toEqual([
      { type: "log", text: "start" },
      { type: "echo", n: 1 },
      { type: "log", text: "echo 1 after 7" },
      { type: "echo", n: 2 },
      { type: "log", text: "echo 2 after 7,9" },
    ]);
    // Re-renders run nothing again: effects are not kept anywhere to be found twice.
    r.rerender(<Harness ran={ran} out={out} />);
    expect(ran).toHaveLength(5);
  });

  it("reads the latest state inside an effect, before React has drawn it (how the app hands its state on at exit)", async () => {
    const seen: number[][] = [];
    function Reader({ out }: { out: { dispatch?: (a: Action) => void } }) {
      const run: RunEffect<Action, Effect> = (e) => {
        if (e.type === "echo") seen.push(latest());
      };
      const [state, dispatch, latest] = useUpdateLoop(update, () => [] as number[], run);
      out.dispatch = dispatch;
      return <Text>{state.join(",") || "empty"}</Text>;
    }
    const out: { dispatch?: (a: Action) => void } = {};
    await renderInk(<Reader out={out} />);
    await act(async () => {
      out.dispatch!({ type: "add", n: 7 });
      out.dispatch!({ type: "add", n: 9 });
    });
    expect(seen).toEqual([[7], [7, 9]]);
  });
});
