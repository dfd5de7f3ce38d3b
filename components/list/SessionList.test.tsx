import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, renderInk } from "../../test/helpers/ink.js";
import { makeSessions, makeSummary } from "../../test/helpers/sessions.js";
import type { ListRow } from "../../src/browser/list/derive.js";
import { displayWidth } from "../../src/text/sanitize.js";
import { SessionList } from "./SessionList.js";

afterEach(cleanupInk);

const rowsOf = (n: number): ListRow[] => makeSessions(n).map((session) => ({ session, depth: 0, prefix: "" }));
const now = Date.parse("2025-01-16T12:00:00Z");

describe("SessionList", () => {
  it("renders only the visible window, with the marker on the cursor", async () => {
    const r = await renderInk(
      <SessionList rows={rowsOf(1000)} cursor={0} width={80} height={8} showCwd={false} emptyText="none" now={now} />,
    );
    const lines = r.lastFrame()!.split("\n");
    expect(lines).toHaveLength(8);
    // Border, column headings, then the rows: 8 rows of pane hold 5 sessions.
    expect(lines[0]).toMatch(/^╭─ Sessions /);
    expect(lines[1]).toMatch(/^│ {2}TITLE +AGE +MSGS +SIZE│$/);
    expect(lines[2]).toMatch(/^│❯ session 0 /);
    expect(lines[3]).toMatch(/^│ {2}session 1 /);
    expect(r.lastFrame()).toContain("session 4 ");
    expect(r.lastFrame()).not.toContain("session 5 ");
  });
  it("scrolls to keep the cursor in view", async () => {
    const rows = rowsOf(100);
    const r = await renderInk(
      <SessionList rows={rows} cursor={0} width={80} height={8} showCwd={false} emptyText="none" now={now} />,
    );
    await act(async () =>
      r.rerender(
        <SessionList rows={rows} cursor={50} width={80} height={8} showCwd={false} emptyText="none" now={now} />,
      ),
    );
    const lines = r.lastFrame()!.split("\n");
    expect(lines).toHaveLength(8);
    expect(lines.find((l) => l.startsWith("│❯"))).toContain("session 50");
    await act(async () =>
      r.rerender(
        <SessionList rows={rows} cursor={99} width={80} height={8} showCwd={false} emptyText="none" now={now} />,
      ),
    );
    expect(r.lastFrame()!.split("\n").at(-2)).toMatch(/^│❯ session 99/);
  });
  it("shows the cwd column, tree glyphs, and the empty text", async () => {
    const parent = makeSummary({ firstMessage: "parent", cwd: "/srv/app" });
    const fork = makeSummary({ name: "the fork", cwd: "/srv/app" });
    const rows: ListRow[] = [
      { session: parent, depth: 0, prefix: "" },
      { session: fork, depth: 1, prefix: "└─ " },
    ];
    const r = await renderInk(
      <SessionList rows={rows} cursor={1} width={90} height={5} showCwd emptyText="none" now={now} />,
    );
    const f = r.lastFrame()!;
    expect(f).toContain("❯ └─ the fork");
    expect(f).toContain("/srv/app");
    const e = await renderInk(
      <SessionList rows={[]} cursor={0} width={90} height={5} showCwd={false} emptyText="scanning…" now={now} />,
    );
    expect(e.lastFrame()).toContain("scanning…");
  });
  it("keeps every row within the width even with wide text", async () => {
    const rows: ListRow[] = [{ session: makeSummary({ firstMessage: "日本語".repeat(40) }), depth: 0, prefix: "" }];
    const r = await renderInk(
      <SessionList rows={rows} cursor={0} width={70} height={5} showCwd={false} emptyText="" now={now} />,
    );
    const lines = r.lastFrame()!.split("\n");
    expect(lines[2]).toMatch(/^│❯ 日本語.*│$/);
    for (const l of lines) expect(displayWidth(l)).toBe(70);
  });
});
