import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { LifecycleDeps } from "../../src/browser/lifecycle/lifecycleEffects.js";
import type { TrashIO } from "../../src/browser/trash/trashRunner.js";
import { cleanupInk, press, renderApp, waitForFrame } from "../../test/helpers/ink.js";
import { makeSessions } from "../../test/helpers/sessions.js";
import { NOW, RECORDS } from "../../test/helpers/trash-records.js";
import { TrashScreen } from "./TrashScreen.js";

describe("TrashScreen", () => {
  it("lists the trashed sessions with the cursor's one marked, and where it came from and is now", () => {
    const { lastFrame } = render(
      <TrashScreen layer={{ kind: "trash", items: RECORDS, cursor: 1 }} width={100} height={9} now={NOW} />,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "╭─ Trash · deleted from this store, newest first ───────────────────────────────────── 3 sessions ─╮
      │  fix the flaky parser test                                       /home/u/proj    1h ago     47 KB│
      │❯ refactor the store                                           --home-u-proj--    2d ago    2.0 KB│
      │  2026-11-01T10-00-00-000Z_s1.jsonl                            --home-u-proj--    3w ago    1.1 MB│
      │                                                                                                  │
      │file  2026-11-02T10-00-00-000Z_s2.jsonl                                                           │
      │from  /home/u/.pi/agent/sessions/--home-u-proj--/                                                 │
      │now   /home/u/.local/share/Trash/files/                                                           │
      ╰──────────────────────────────────────────────────────────────────────────────────────────────────╯"
    `);
  });

  it("names a host's trashed session and its paths with the host, kept when a path is cut", () => {
    const there = {
      ...RECORDS[0],
      original: "/home/me/.cache/pi-sessions/remote/ab12/files/c0ffee.jsonl",
      host: "devbox",
      hostPath:
        "/home/someone/a/very/long/way/down/.pi/agent/sessions/--home-u-proj--/2026-11-03T10-00-00-000Z_s3.jsonl",
      trashedFile: "/home/someone/a/very/long/way/down/.local/share/Trash/files/2026-11-03T10-00-00-000Z_s3.jsonl",
    };
    const at = (width: number) =>
      render(
        <TrashScreen
          layer={{ kind: "trash", items: [there, RECORDS[1]], cursor: 0 }}
          width={width}
          height={8}
          now={NOW}
        />,
      ).lastFrame()!;
    const frame = at(90);
    expect(frame).toContain("Trash · deleted from this store and each host's");
    expect(frame).toMatch(/devbox:\/home\/u\/proj/);
    expect(frame).toContain(`from  devbox:${there.hostPath.slice(0, there.hostPath.lastIndexOf("/") + 1)}`);
    const narrow = at(60);
    expect(narrow).toContain("file  2026-11-03T10-00-00-000Z_s3.jsonl");
    expect(narrow).toMatch(/from {2}devbox:…\S*--home-u-proj--\//);
    expect(narrow).toMatch(/now {3}devbox:…\S*Trash\/files\//);
    expect(frame).not.toContain("c0ffee");
  });

  it("says when it is reading, and when the trash holds nothing of this store", () => {
    const frame = (items: typeof RECORDS | null) =>
      render(<TrashScreen layer={{ kind: "trash", items, cursor: 0 }} width={70} height={6} now={NOW} />).lastFrame()!;
    expect(frame(null)).toContain("reading the trash log…");
    expect(frame([])).toContain("No session of this store is in the trash.");
    expect(frame([])).toContain("0 sessions");
  });

  it("scrolls to keep the cursor on screen and says where it is", () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ ...RECORDS[0], trashedFile: `/t/${i}`, title: `s${i}` }));
    const f = render(
      <TrashScreen layer={{ kind: "trash", items: many, cursor: 25 }} width={70} height={10} now={NOW} />,
    ).lastFrame()!;
    expect(f).toContain("26 of 30");
    expect(f).toContain("❯ s25");
    expect(f).not.toContain(" s0 ");
  });

  it("tells the reducer how many rows it shows (its keys page by them), again when that changes", async () => {
    const seen: unknown[] = [];
    const layer = { kind: "trash" as const, items: RECORDS, cursor: 0 };
    const r = render(<TrashScreen layer={layer} width={70} height={10} now={NOW} dispatch={(a) => seen.push(a)} />);
    await new Promise((done) => setImmediate(done));
    expect(seen).toEqual([{ type: "trash.view", page: 5 }]);
    r.rerender(
      <TrashScreen layer={{ ...layer, page: 5 }} width={70} height={14} now={NOW} dispatch={(a) => seen.push(a)} />,
    );
    await new Promise((done) => setImmediate(done));
    expect(seen).toEqual([
      { type: "trash.view", page: 5 },
      { type: "trash.view", page: 9 },
    ]);
  });
});

describe("TrashScreen in the browser (keys inside act)", () => {
  afterEach(cleanupInk);

  it("X shows the store's trash, u restores through the lifecycle, D y Y deletes for good (D y y does not), q goes back", async () => {
    const restored: string[] = [];
    const purged: string[] = [];
    let items = [...RECORDS];
    const trash: TrashIO = {
      list: (dir) => (dir === "/store" ? items : []),
      purge: (r) => {
        purged.push(r.trashedFile);
        items = items.filter((x) => x !== r);
      },
    };
    const lifecycle: LifecycleDeps = {
      rename: async (_p, name) => ({ name }),
      trash: () => ({ records: [] }),
      deletePermanently: () => [],
      restore: (r) => {
        restored.push(r.original);
        items = items.filter((x) => x.original !== r.original);
      },
      trashLocation: () => "/trash",
    };
    const { r } = await renderApp({ sessions: makeSessions(2, { cwd: "/home/u/proj" }), deps: { trash, lifecycle } });
    await press(r, "X");
    await waitForFrame(r, (f) => f.includes("Trash ·") && f.includes("3 sessions"));
    await press(r, "j", "u");
    await waitForFrame(r, (f) => f.includes("Restored 1 session") && f.includes("2 sessions"));
    expect(restored).toEqual([RECORDS[1].original]);
    await press(r, "D", "\r");
    await waitForFrame(r, (f) => f.includes("not deleted"));
    await press(r, "D", "y", "y");
    await waitForFrame(r, (f) => f.includes("not deleted"));
    expect(purged).toEqual([]);
    await press(r, "D", "y", "Y");
    await waitForFrame(r, (f) => f.includes("for good") && f.includes("1 session"));
    expect(purged).toHaveLength(1);
    await press(r, "q");
    await waitForFrame(r, (f) => f.includes("Sessions"));
  });
});
