import { afterAll, afterEach, describe, expect, it } from "vitest";
import { toolCallMap } from "../../src/model/row-text.js";
import { loadSessionIndex } from "../../src/store/session-index.js";
import { cleanupInk, renderInk, waitForFrame } from "../../test/helpers/ink.js";
import { writeBranchedSession } from "../../test/helpers/session-file.js";
import { EntryPreview } from "./EntryPreview.js";
import { EntryCache } from "./useEntryPreview.js";

const file = writeBranchedSession();
afterAll(() => file.cleanup());
afterEach(cleanupInk);

describe("EntryPreview", () => {
  it("shows the entry under the cursor, read from its line: who, when, its label and its text", async () => {
    const index = await loadSessionIndex(file.path, { skim: true });
    const r = await renderInk(
      <EntryPreview
        path={file.path}
        node={index.byId.get("u3")}
        label="keep"
        calls={toolCallMap(index)}
        cache={new EntryCache(8)}
        top={0}
        position="right"
        width={50}
        height={8}
        inner={{ width: 47, height: 6 }}
        onMaxTop={() => {}}
      />,
    );
    const frame = await waitForFrame(r, (f) => f.includes("new branch question"));
    expect(frame).toContain("[keep]");
    expect(frame).toMatchInlineSnapshot(`
      "╭─ Entry ────────────────────────────────────────╮
      │ user · 2026-05-02 09:15 · u3                   │
      │ label [keep]                                   │
      │                                                │
      │ user: new branch question                      │
      │ loading…                                       │
      │                                                │
      ╰────────────────────────────────────────────────╯"
    `);
  });
});
