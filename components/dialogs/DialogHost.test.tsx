import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { DEFAULT_KEYMAP } from "../../src/browser/keys/keymap.js";
import { DialogHost } from "./DialogHost.js";

const host = (layer: Parameters<typeof DialogHost>[0]["layer"]) =>
  render(
    <Box width={80} height={16}>
      <DialogHost
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
