import { afterAll, describe, expect, it } from "vitest";
import { writeSession, user, assistant } from "../../../test/helpers/session-file.js";
import { loadSessionIndex } from "../../store/session-index.js";
import type { AppAction } from "../app/appReducer.js";
import { realTreeIO, runTreeEffect, type TreeIO } from "./treeRunner.js";

const long = `please refactor ${"x".repeat(300)} and keep the tests`;
const file = writeSession([
  user("u1", null, "hello"),
  assistant("a1", "u1", "hi"),
  user("u2", "a1", long),
  assistant("a2", "u2", "ok"),
]);
afterAll(() => file.cleanup());

describe("resume at a user message: the runner", () => {
  it("reads the message's full text, moves the position, then copies the text; the action says it was copied", async () => {
    const index = await loadSessionIndex(file.path);
    const calls: string[] = [];
    const io: TreeIO = {
      ...realTreeIO,
      mtimeMs: async () => 0,
      now: () => 1e12,
      navigate: async (_p, id) => (calls.push(`navigate ${id}`), null),
      copy: (t) => void calls.push(`copy ${t}`),
    };
    const actions: AppAction[] = [];
    const done = new Promise<void>((resolve) => {
      runTreeEffect(
        {
          type: "tree.write",
          path: file.path,
          write: { op: "navigate", entryId: "a1", copyOf: index.byId.get("u2")! },
          force: false,
        },
        (a) => {
          actions.push(a);
          resolve();
        },
        io,
        {},
      );
    });
    await done;
    expect(calls).toEqual(["navigate a1", `copy ${long}`]);
    expect(actions[0]).toMatchObject({ type: "tree.written", copied: true });
  });
});
