import { describe, expect, it } from "vitest";
import type { AppAction } from "./appReducer.js";
import type { Outcome } from "./effects.js";
import { createEffectRunner, type EffectIO } from "./effectRunner.js";

function io(over: Partial<EffectIO> = {}) {
  const exits: Outcome[] = [];
  const base = {
    lifecycle: { trashLocation: () => "/trash" },
    cwdExists: (d: string) => d === "/here",
    exit: (o: Outcome) => void exits.push(o),
    afterWrite: () => {},
    ...over,
  } as unknown as EffectIO;
  return { io: base, exits };
}

describe("the effect runner", () => {
  it("resumes in the session's folder, or where the browser started when that is gone (pi asks there, once)", () => {
    const { io: x, exits } = io();
    const actions: AppAction[] = [];
    const r = createEffectRunner(() => x);
    r.run({ type: "resume", path: "/s.jsonl", cwd: "/here", launchCwd: "/launch" }, (a) => actions.push(a));
    r.run({ type: "resume", path: "/s.jsonl", cwd: "/gone", launchCwd: "/launch" }, (a) => actions.push(a));
    expect(exits).toEqual([
      { kind: "resume", path: "/s.jsonl", cwd: "/here" },
      { kind: "resume", path: "/s.jsonl", cwd: "/launch" },
    ]);
    expect(actions).toEqual([]);
  });
  it("does not leave for pi when pi cannot start, and says why", () => {
    const { io: x, exits } = io({ piProblem: () => "pi is not installed" });
    const actions: AppAction[] = [];
    createEffectRunner(() => x).run({ type: "exit", outcome: { kind: "resume", path: "/s", cwd: "/here" } }, (a) =>
      actions.push(a),
    );
    expect(exits).toEqual([]);
    expect(actions).toEqual([{ type: "lifecycle.failed", message: "pi is not installed" }]);
  });
  it("reads the io at each effect, so it always uses the current deps", () => {
    let x = io().io;
    const r = createEffectRunner(() => x);
    const actions: AppAction[] = [];
    r.run({ type: "trashLocation" }, (a) => actions.push(a));
    x = io({ lifecycle: { trashLocation: () => undefined } as unknown as EffectIO["lifecycle"] }).io;
    r.run({ type: "trashLocation" }, (a) => actions.push(a));
    expect(actions).toEqual([
      { type: "lifecycle.setup", trashDir: "/trash" },
      { type: "lifecycle.setup", trashDir: null },
    ]);
  });
});
