import { afterEach, describe, expect, it, vi } from "vitest";
import { parseQuery } from "../../src/search/query.js";
import { cleanupInk, renderInk } from "../../test/helpers/ink.js";
import { makeSessions, makeSummary } from "../../test/helpers/sessions.js";
import type { ListRow } from "../../src/browser/list/derive.js";
import { SessionList } from "./SessionList.js";

// Colours and attributes on before Ink's chalk loads, so the highlighting shows in frames.
vi.hoisted(() => {
  process.env.FORCE_COLOR = "1";
});

afterEach(cleanupInk);

const rowsOf = (n: number): ListRow[] => makeSessions(n).map((session) => ({ session, depth: 0, prefix: "" }));
const now = Date.parse("2025-01-16T12:00:00Z");
/** The texts drawn underlined (Ink: ESC[4m … ESC[24m). */
const underlined = (frame: string) => [...frame.matchAll(/\x1b\[4m([^\x1b]*)\x1b\[24m/g)].map((m) => m[1]);

describe("SessionList: search matches", () => {
  it("underlines what the query matched in the title, the folder and the snippet", async () => {
    const named = makeSummary({ name: "deploy script", cwd: "/srv/deploy-box" });
    const textHit = makeSummary({ firstMessage: "nothing here", cwd: "/srv/x" });
    const rows: ListRow[] = [
      { session: named, depth: 0, prefix: "" },
      { session: textHit, depth: 0, prefix: "", snippet: "…we deploy on friday" },
    ];
    const r = await renderInk(
      <SessionList
        rows={rows}
        cursor={1}
        width={100}
        height={6}
        showCwd
        emptyText="none"
        now={now}
        query={parseQuery("deploy")}
      />,
    );
    const f = r.lastFrame()!;
    expect(underlined(f)).toEqual(["deploy", "deploy", "deploy"]);
  });
  it("marks a name's scattered letters, never a message's", async () => {
    const named = makeSummary({ name: "debug ply", cwd: "/q" });
    const r = await renderInk(
      <SessionList
        rows={[{ session: named, depth: 0, prefix: "" }]}
        cursor={0}
        width={80}
        height={5}
        showCwd={false}
        emptyText="none"
        now={now}
        query={parseQuery("dply")}
      />,
    );
    expect(underlined(r.lastFrame()!).join("")).toBe("dply");
  });
  it("draws no underline without a query", async () => {
    const r = await renderInk(
      <SessionList rows={rowsOf(3)} cursor={0} width={80} height={6} showCwd={false} emptyText="none" now={now} />,
    );
    expect(r.lastFrame()).toContain("session 2");
    expect(r.lastFrame()).not.toContain("\x1b[4m");
  });
});

describe("LinesPane (the previews): search matches", () => {
  it("underlines the ranges a line carries", async () => {
    const { LinesPane } = await import("../preview/LinesPane.js");
    const r = await renderInk(
      <LinesPane
        lines={[{ text: "no match here" }, { text: "  we deploy today", ranges: [[5, 11]] }]}
        empty=""
        position="right"
        width={40}
        height={3}
      />,
    );
    expect(underlined(r.lastFrame()!)).toEqual(["deploy"]);
  });
});
