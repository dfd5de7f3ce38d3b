import { render } from "ink-testing-library";
import { afterAll, describe, expect, it } from "vitest";
import { toolCallMap } from "../../src/model/row-text.js";
import { buildTreeView } from "../../src/model/tree-view.js";
import { loadSessionIndex } from "../../src/store/session-index.js";
import { writeBranchedSession } from "../../test/helpers/session-file.js";
import { TreePane } from "./TreePane.js";

const file = writeBranchedSession();
afterAll(() => file.cleanup());

describe("TreePane", () => {
  it("draws the branch tree in its frame: gutters, the label, the cursor and the active leaf", async () => {
    const index = await loadSessionIndex(file.path, { skim: true });
    const view = buildTreeView(index, "default", new Set());
    const cursor = view.rowOf.get(index.leafId!) ?? 0;
    const { lastFrame } = render(
      <TreePane
        view={view}
        index={index}
        calls={toolCallMap(index)}
        folded={new Set()}
        matches={new Set()}
        cursor={cursor}
        width={60}
        height={10}
      />,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "╭─ Branch tree ─────────────────────────────────── 1 of 6 ─╮
      │❯ • user: first question                                  │
      │  • assistant: first answer                               │
      │  ├⊟ • [keep] user: new branch question                   │
      │  │     • assistant: new branch answer ← active           │
      │  └⊟ user: old branch question                            │
      │        assistant: old branch answer                      │
      │                                                          │
      │                                                          │
      ╰──────────────────────────────────────────────────────────╯"
    `);
    expect(lastFrame()).toContain("[keep]");
    expect(lastFrame()).toContain("← active");
  });
});
