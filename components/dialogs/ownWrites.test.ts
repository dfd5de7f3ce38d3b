import { describe, expect, it } from "vitest";
import { K, key as mkKey } from "../../test/helpers/keys.js";
import { makeSessions } from "../../test/helpers/sessions.js";
import { reduce, scanSummaries } from "../../test/helpers/update.js";
import { type AppAction, type AppState, initialState, topLayer } from "../../src/browser/app/appReducer.js";
import type { LifecycleLayer } from "../../src/browser/lifecycle/lifecycle.js";
import { deleteLines } from "./DeleteDialog.js";

// The delete dialog's words for a session the browser itself wrote last (a fork): no "pi may have it open".
const CWD = "/home/u/proj";
const run = (s: AppState, ...actions: AppAction[]) => reduce(s, ...actions);
const key = (k: readonly [string, import("../../src/browser/keys/key.js").Key]): AppAction => ({
  type: "key",
  input: k[0],
  key: k[1],
});
const DKEY: AppAction = { type: "key", input: "d", key: mkKey() };
const layer = (s: AppState) => topLayer(s) as LifecycleLayer;
function loaded(n: number) {
  const sessions = makeSessions(n, { cwd: CWD });
  const s = run(initialState({ launchCwd: CWD }), scanSummaries(sessions), {
    type: "lifecycle.setup",
    trashDir: "/home/u/.local/share/Trash",
  });
  return { s, sessions };
}

describe("own writes are not pi's, in the delete dialog", () => {
  it("a fork just written deletes without the 'pi may have it open' warning; a later change by someone else warns", () => {
    const { s, sessions } = loaded(2);
    const now = Date.now();
    const fork = makeSessions(1, {
      cwd: CWD,
      path: "/store/fork.jsonl",
      mtimeMs: now - 200,
      modified: new Date(now - 200),
    })[0];
    let n = run(s, { type: "tree.forked", source: sessions[0].path, path: fork.path, summary: fork }, DKEY);
    const top = layer(n);
    expect(top.kind === "delete" && top.targets[0]).toMatchObject({ path: fork.path, ours: true });
    expect(
      deleteLines({
        step: "confirm",
        targets: top.kind === "delete" ? top.targets : [],
        bulk: false,
        trashDir: "/t",
        now,
      })
        .map((l) => l.text)
        .join("\n"),
    ).not.toContain("pi may have it open");
    n = run(
      n,
      key(K.char("n")),
      {
        type: "store.changes",
        updated: [{ ...fork, bytes: fork.bytes + 10, mtimeMs: now - 50 }],
        removed: [],
        diagnostics: [],
      },
      DKEY,
    );
    const again = layer(n);
    expect(again.kind === "delete" && again.targets[0].ours).toBe(false);
  });
});
