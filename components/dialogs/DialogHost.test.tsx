import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { DEFAULT_KEYMAP } from "../../src/browser/keys/keymap.js";
import type { TreeState } from "../../src/browser/tree/treeState.js";
import { DialogHost } from "./DialogHost.js";

const host = (layer: Parameters<typeof DialogHost>[0]["layer"], tree?: TreeState) =>
  render(
    <Box width={80} height={16}>
      <DialogHost
        tree={tree}
        layer={layer}
        keymap={DEFAULT_KEYMAP}
        launchCwd="/home/u/proj"
        helpTop={0}
        width={80}
        height={16}
        trashDir="/t"
      />
    </Box>,
  ).lastFrame();

describe("DialogHost", () => {
  it("draws the dialog of the top layer, and nothing for a screen or no layer", () => {
    const rename = host({
      kind: "rename",
      path: "/s.jsonl",
      title: "my session",
      input: { value: "x", cursor: 1 },
      mtimeMs: 0,
      ours: false,
    });
    expect(rename).toMatchInlineSnapshot(`
      "



                ╭─ Rename session ─────────────────────────────────────────╮
                │   my session                                             │
                │                                                          │
                │ Name: x                                                  │
                │                                                          │
                │ Enter save · Esc cancel · an empty name clears it        │
                ╰──────────────────────────────────────────────────────────╯




      "
    `);
    expect(rename).toContain("Rename session");
    expect(host(undefined)!.trim()).toBe("");
    expect(host({ kind: "tree" })!.trim()).toBe("");
  });
  it("over the tree: its write-anyway question and its label field, through the same host", () => {
    const tree = { path: "/store/s.jsonl", calls: new Map(), index: undefined } as unknown as TreeState;
    const confirm = host({ kind: "tree" }, { ...tree, confirm: { op: "label", entryId: "u1", label: "x" } });
    expect(confirm).toContain("Write anyway?");
    expect(confirm).toContain("s.jsonl");
    const label = host({ kind: "tree" }, {
      ...tree,
      input: { kind: "label", entryId: null, text: { value: "keep", cursor: 4 } },
    } as unknown as TreeState);
    expect(label).toContain("Label: keep");
    expect(host({ kind: "tree" }, tree)!.trim()).toBe("");
  });

  it("the rename dialog warns when pi may have the file open (changed in the last 10 seconds, not by us)", () => {
    expect(
      host({
        kind: "rename",
        path: "/s.jsonl",
        title: "t",
        input: { value: "", cursor: 0 },
        mtimeMs: Date.now(),
        ours: false,
      }),
    ).toContain("pi may have it open");
    expect(
      host({
        kind: "rename",
        path: "/s.jsonl",
        title: "t",
        input: { value: "", cursor: 0 },
        mtimeMs: Date.now(),
        ours: true,
      }),
    ).not.toContain("pi may have it open");
  });
});
