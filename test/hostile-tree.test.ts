import { existsSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AppAction } from "../src/browser/app/appReducer.js";
import { realTreeIO, runTreeEffect } from "../src/browser/tree/treeRunner.js";
import { loadSessionIndex } from "../src/store/session-index.js";
import { lazyBlocks } from "../src/transcript/lazy.js";
import { assistant, HEADER, user, writeSession } from "./helpers/session-file.js";

/*
 * Issue 21 items 3 and 4: the tree (and the reader opened from it) hold what they read;
 * the file may be replaced under them. A write or fork from the tree checks the file is
 * the one it read; the reader shows a note where it cannot read, never an error.
 */

const files: { cleanup(): void }[] = [];
afterAll(() => files.forEach((f) => f.cleanup()));

function shown() {
  const f = writeSession([user("u1", null, "the question"), assistant("a1", "u1", "ORIGINAL answer")]);
  files.push(f);
  return f;
}

/** Replaces the file at `path` with another session's bytes, as `mv other.jsonl <session>` does. */
function replace(path: string) {
  const other = `${dirname(path)}/other.jsonl`;
  writeFileSync(
    other,
    [
      { ...HEADER, id: "other-session" },
      user("x1", null, "REPLACEMENT question"),
      assistant("a1", "x1", "REPLACEMENT answer"),
    ]
      .map((e) => JSON.stringify(e))
      .join("\n") + "\n",
  );
  renameSync(other, path);
}

function run(effect: Parameters<typeof runTreeEffect>[0]): Promise<AppAction> {
  return new Promise((resolve) =>
    runTreeEffect(
      effect,
      (a) => resolve(a as AppAction),
      { ...realTreeIO, mtimeMs: async () => 0, now: () => 1e13 },
      {},
    ),
  );
}

describe("the tree never writes into a file it did not read (issue 21 item 3)", () => {
  it("a fork from a tree whose file was replaced forks nothing, says so and reads again", async () => {
    const f = shown();
    const index = await loadSessionIndex(f.path, { skim: true });
    replace(f.path);
    const before = readdirSync(f.dir).sort();
    const a = await run({
      type: "tree.fork",
      path: f.path,
      entryId: "a1",
      read: { ino: index.ino, bytes: index.bytes, mtimeMs: index.mtimeMs },
    });
    expect(a).toMatchObject({ type: "tree.stale", path: f.path });
    expect((a as { error: string }).error).toMatch(/changed since it was read.*nothing forked/);
    expect(readdirSync(f.dir).sort()).toEqual(before);
  });

  it("a label from a tree whose file was replaced writes nothing", async () => {
    const f = shown();
    const index = await loadSessionIndex(f.path, { skim: true });
    replace(f.path);
    const bytes = readdirSync(f.dir).map((n) => n);
    const a = await run({
      type: "tree.write",
      path: f.path,
      write: { op: "label", entryId: "a1", label: "x" },
      force: true,
      read: { ino: index.ino, bytes: index.bytes, mtimeMs: index.mtimeMs },
    });
    expect(a).toMatchObject({ type: "tree.stale" });
    expect(readdirSync(f.dir)).toEqual(bytes);
    const again = await loadSessionIndex(f.path);
    expect(again.labels.size).toBe(0);
  });

  it("a file that only grew (pi appended) is still the one read: the fork goes ahead", async () => {
    const f = shown();
    const index = await loadSessionIndex(f.path, { skim: true });
    writeFileSync(f.path, JSON.stringify(user("u2", "a1", "more")) + "\n", { flag: "a" });
    const a = await run({
      type: "tree.fork",
      path: f.path,
      entryId: "a1",
      read: { ino: index.ino, bytes: index.bytes, mtimeMs: index.mtimeMs },
    });
    expect(a).toMatchObject({ type: "tree.forked", source: f.path });
    expect(existsSync((a as { path: string }).path)).toBe(true);
  });
});

describe("the reader over a file that changed or vanished (issue 21 item 4)", () => {
  it("shows a note in place of what it cannot read, and never throws", async () => {
    const f = shown();
    const index = await loadSessionIndex(f.path, { skim: true });
    replace(f.path);
    const blocks = lazyBlocks(index, ["u1", "a1"]);
    const b = blocks.get(0);
    expect(b).toMatchObject({ kind: "custom" });
    expect((b as { text: string }).text).toMatch(/cannot show this part: .*changed since it was read/);
    f.cleanup();
    expect(() => lazyBlocks(index, ["u1", "a1"]).get(1)).not.toThrow();
  });
});
