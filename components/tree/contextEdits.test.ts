// Context edits (pi 1.5.2) in the tree, the entry preview and the session preview: the text the
// model sees where pi applies the edits (the active branch), a mark, the original one key away.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadSessionIndex, type SessionIndex } from "../../src/store/session-index.js";
import { K } from "../../test/helpers/keys.js";
import { makeSummary } from "../../test/helpers/sessions.js";
import { loadPreviewTail } from "../preview/loadPreviewTail.js";
import { previewLines } from "../preview/previewLines.js";
import { type AppAction, type AppState, initialState } from "../../src/browser/app/appReducer.js";
import { entryPreviewLines } from "./entryPreviewLines.js";
import { treeRowParts } from "./treeRowFormat.js";
import { withIndex, newTreeState } from "../../src/browser/tree/treeState.js";
import { reduce, scanSummaries } from "../../test/helpers/update.js";

const FIX = join("fixtures", "pi-1.5.2");
const expected = JSON.parse(readFileSync(join(FIX, "expected.json"), "utf8"));
const PREFIX: string = expected.agentDir.replace(/\/agent$/, "");
// S2: u1 0995b3f3 omitted; a1 06ad38e8 replaced twice on the active branch ("S2 replaced twice").
const S2 = join(FIX, expected.notes.S2.file.slice(PREFIX.length + 1));
const OMITTED = expected.notes.S2.u1;
const REPLACED = expected.notes.S2.a1;

let index: SessionIndex;
beforeAll(async () => {
  index = await loadSessionIndex(S2);
});

describe("the tree", () => {
  it("marks edited rows and shows the replacement; e shows the entry as written", () => {
    const t = withIndex(newTreeState(S2, "/x", "S2"), index);
    expect([...t.edits.keys()].sort()).toEqual([OMITTED, REPLACED].sort());
    const row = (id: string, original = false) =>
      treeRowParts(
        t.view!,
        index,
        t.calls,
        t.folded,
        new Set(),
        t.view!.rowOf.get(id)!,
        -1,
        120,
        undefined,
        t.edits,
        original,
      );
    expect(row(REPLACED)).toMatchObject({ edit: "✎ ", text: "assistant: S2 replaced twice" });
    expect(row(REPLACED, true)).toMatchObject({ edit: "✎ ", text: "assistant: S2 answer one" });
    expect(row(OMITTED)).toMatchObject({ edit: "⊘ ", text: "user: S2 secret prompt with api key" });
    const plain = [...t.view!.rows].find((r) => !t.edits.has(r.id))!;
    expect(row(plain.id).edit).toBe("");
  });

  it("O toggles between as the model sees it and as written, and says which", () => {
    let s: AppState = reduce(initialState({ launchCwd: "/x" }), scanSummaries([makeSummary({ path: S2, cwd: "/x" })]));
    const run = (st: AppState, ...a: AppAction[]) => reduce(st, ...a);
    s = run(s, { type: "command", command: "tree.open" });
    s = run(s, { type: "tree.loaded", path: S2, seq: s.tree!.loadSeq, index });
    expect(s.tree!.original).toBe(false);
    s = run(s, { type: "key", input: K.char("O")[0], key: K.char("O")[1] });
    expect(s.tree!.original).toBe(true);
    expect(s.tree!.message?.text).toMatch(/as written/);
    s = run(s, { type: "key", input: K.char("O")[0], key: K.char("O")[1] });
    expect(s.tree!.original).toBe(false);
  });

  it("the entry preview says what edited it and shows the replacement, or the original with e", async () => {
    const node = index.byId.get(REPLACED)!;
    const entry = JSON.parse(
      readFileSync(S2, "utf8")
        .split("\n")
        .find((l) => l.includes(`"id":"${REPLACED}"`))!,
    );
    const t = withIndex(newTreeState(S2, "/x", "S2"), index);
    const edit = t.edits.get(REPLACED)!;
    const edited = entryPreviewLines(node, { status: "ready", entry }, undefined, t.calls, 80, {
      ...edit,
      original: false,
    }).map((l) => l.text);
    expect(edited.some((l) => l.startsWith("✎ replaced in the model's context by context edit"))).toBe(true);
    expect(edited).toContain("S2 replaced twice");
    expect(edited).not.toContain("S2 answer one");
    const asWritten = entryPreviewLines(node, { status: "ready", entry }, undefined, t.calls, 80, {
      ...edit,
      original: true,
    }).map((l) => l.text);
    expect(asWritten).toContain("S2 answer one");
    const omitted = entryPreviewLines(index.byId.get(OMITTED)!, { status: "loading" }, undefined, t.calls, 80, {
      ...t.edits.get(OMITTED)!,
      original: false,
    }).map((l) => l.text);
    expect(omitted.some((l) => l.startsWith("⊘ omitted from the model's context"))).toBe(true);
    expect(omitted.join("\n")).not.toContain("secret");
  });
});

describe("the session preview", () => {
  it("shows the conversation as pi resumes it: the replacement, and a mark where an entry is omitted", async () => {
    const tail = await loadPreviewTail(S2);
    const omitted = tail.entries.find((e) => e.edit === "omit")!;
    expect(omitted).toMatchObject({ role: "user", text: "" });
    expect(tail.entries.find((e) => e.edit === "replace")).toMatchObject({
      role: "assistant",
      text: "S2 replaced twice",
    });
    const text = previewLines(makeSummary({ path: S2 }), { status: "ready", tail }, 100, 60)
      .map((l) => l.text)
      .join("\n");
    expect(text).toContain("you ⊘ omitted from the model's context");
    expect(text).toContain("assistant ✎ edited for the model");
    expect(text).not.toContain("secret prompt");
    expect(text).not.toContain("S2 answer one");
  });
});
