import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { makeSessions, makeSummary } from "../../test/helpers/sessions.js";
import { RAW } from "../../test/helpers/keys.js";
import {
  cleanupInk,
  manualScan,
  press,
  renderApp,
  resize,
  settle,
  typeText,
  waitForFrame,
} from "../../test/helpers/ink.js";

afterEach(cleanupInk);

const CWD = "/home/u/proj";
const selectedLine = (f: string) => f.split("\n").find((l) => l.includes("❯")) ?? "";

describe("App", () => {
  it("shows rows from the scan with the first selected, and the header counts", async () => {
    const { r } = await renderApp({ sessions: makeSessions(5, { cwd: CWD }) });
    const f = r.lastFrame()!;
    expect(selectedLine(f)).toContain("session 0");
    expect(f).toContain("this folder · 5/5 · sort: recent");
    expect(f).toContain("? help");
  });

  it("moves with arrows and j/k, in bursts too", async () => {
    const { r } = await renderApp({ sessions: makeSessions(5, { cwd: CWD }) });
    await press(r, RAW.down, "j", "j", "k");
    expect(selectedLine(r.lastFrame()!)).toContain("session 2");
    await press(r, "G");
    expect(selectedLine(r.lastFrame()!)).toContain("session 4");
    await press(r, "g");
    expect(selectedLine(r.lastFrame()!)).toContain("session 0");
    await press(r, RAW.down + RAW.down + RAW.down);
    expect(selectedLine(r.lastFrame()!)).toContain("session 3");
  });

  it("renders only the visible rows of a long list", async () => {
    const { r } = await renderApp({ sessions: makeSessions(500, { cwd: CWD }) });
    const f = r.lastFrame()!;
    expect(f).toContain("session 0");
    expect(f).not.toContain("session 100");
    expect(f.split("\n").length).toBeLessThanOrEqual(30);
    await press(r, RAW.end);
    expect(selectedLine(r.lastFrame()!)).toContain("session 499");
  });

  it("narrows the list with / search, Enter keeps it, Esc clears it", async () => {
    const sessions = [
      makeSummary({ cwd: CWD, firstMessage: "refactor the parser" }),
      makeSummary({ cwd: CWD, firstMessage: "write docs" }),
    ];
    const { r } = await renderApp({ sessions });
    await press(r, "/");
    await typeText(r, "parser");
    let f = r.lastFrame()!;
    expect(f).toContain("/parser");
    expect(f).toContain("1 match");
    expect(f).not.toContain("write docs");
    await press(r, RAW.enter);
    f = r.lastFrame()!;
    expect(f).not.toContain("write docs");
    expect(f).toContain("↓ move");
    await press(r, RAW.escape);
    expect(r.lastFrame()).toContain("write docs");
  });

  it("shows a regex error and matches nothing", async () => {
    const { r } = await renderApp({ sessions: makeSessions(2, { cwd: CWD }) });
    await press(r, "/");
    await typeText(r, "re:([");
    const f = r.lastFrame()!;
    expect(f).toContain("invalid pattern");
    expect(f).toContain("no session in this folder matches · Tab searches all folders");
  });

  it("toggles scope with Tab and cycles sort with s", async () => {
    const sessions = [
      makeSummary({ cwd: CWD, firstMessage: "here" }),
      makeSummary({ cwd: "/other/place", firstMessage: "there" }),
    ];
    const { r } = await renderApp({ sessions });
    expect(r.lastFrame()).not.toContain("there");
    await press(r, RAW.tab);
    let f = r.lastFrame()!;
    expect(f).toContain("all folders · 2/2");
    expect(f).toContain("there");
    expect(f).toContain("/other/place");
    await press(r, "s");
    f = r.lastFrame()!;
    expect(f).toContain("sort: created");
  });

  it("opens and closes the help overlay", async () => {
    const { r } = await renderApp({ sessions: makeSessions(2, { cwd: CWD }) });
    await press(r, "?");
    expect(r.lastFrame()).toContain("Keys");
    expect(r.lastFrame()).toContain("resume the selected session in pi");
    await press(r, RAW.escape);
    expect(r.lastFrame()).not.toContain("resume the selected session in pi");
    expect(selectedLine(r.lastFrame()!)).toContain("session 0");
  });

  it("resumes the selected session with its cwd", async () => {
    const sessions = makeSessions(3, { cwd: CWD });
    const h = await renderApp({ sessions });
    await press(h.r, RAW.down, RAW.enter);
    expect(h.exits).toEqual([{ kind: "resume", path: sessions[1].path, cwd: CWD }]);
  });

  it("resumes where the browser started when the session's folder is gone: pi asks there, once; ours does not", async () => {
    const sessions = makeSessions(1, { cwd: "/gone" });
    const h = await renderApp({ sessions, all: true, launchCwd: CWD, deps: { cwdExists: () => false } });
    await press(h.r, RAW.enter);
    expect(h.exits).toEqual([{ kind: "resume", path: sessions[0].path, cwd: CWD }]);
    expect(h.r.lastFrame()).not.toContain("no longer exists");
  });
  it("draws a dialog over the list, sized to its content and centred, never as a full-screen box", async () => {
    const sessions = makeSessions(8);
    const h = await renderApp({ sessions });
    await resize(h.r, 120, 30);
    await press(h.r, "\x12"); // Ctrl+R
    const lines = h.r.lastFrame()!.split("\n");
    const top = lines.findIndex((l) => l.includes("╭─ Rename session"));
    expect(top).toBeGreaterThan(3);
    const left = lines[top].indexOf("╭─ Rename session");
    const right = 120 - (left + lines[top].slice(left).indexOf("╮") + 1);
    expect(left).toBeGreaterThan(10);
    expect(Math.abs(left - right)).toBeLessThanOrEqual(1); // centred
    // The list is still there around it.
    expect(lines.slice(0, top).join("\n")).toContain("session 0");
  });

  it("x opens the action menu; an action runs as its key would, Esc closes", async () => {
    const sessions = makeSessions(2);
    const h = await renderApp({ sessions });
    await press(h.r, "x");
    expect(h.r.lastFrame()).toContain("Actions");
    expect(h.r.lastFrame()).toMatch(/Rename\s+Ctrl\+R/);
    await press(h.r, RAW.escape);
    expect(h.r.lastFrame()).not.toContain("Actions");
    await press(h.r, "x", RAW.down, RAW.down, RAW.down, RAW.enter); // Rename
    expect(h.r.lastFrame()).toContain("Rename session");
    await press(h.r, RAW.escape);
    // An item runs by its own key too, as in lazygit.
    await press(h.r, "x", "r");
    expect(h.r.lastFrame()).not.toContain("Actions");
    expect(h.r.lastFrame()).toContain("Rename session");
  });

  it("a pi that cannot be started is said in place; the browser stays", async () => {
    const sessions = makeSessions(2, { cwd: CWD });
    const p = await renderApp({ sessions, deps: { piProblem: () => "cannot resume: 'pi' is not on PATH" } });
    await press(p.r, RAW.enter);
    await waitForFrame(p.r, (f) => f.includes("cannot resume: 'pi' is not on PATH"));
    expect(p.exits).toEqual([]);
    await press(p.r, "j");
    expect(selectedLine(p.r.lastFrame()!)).toContain("session 1");
  });

  it("in picker mode Enter in the search field picks the top match at once", async () => {
    const sessions = [
      makeSummary({ cwd: CWD, firstMessage: "write docs" }),
      makeSummary({ cwd: CWD, firstMessage: "refactor the parser" }),
    ];
    const p = await renderApp({ sessions, print: true });
    // The picker opens typing into its search: no "/" first.
    await typeText(p.r, "parser");
    await press(p.r, RAW.enter);
    expect(p.exits).toEqual([{ kind: "print", path: sessions[1].path }]);
  });

  it("in picker mode Enter on a search with no match picks nothing", async () => {
    const p = await renderApp({ sessions: makeSessions(2, { cwd: CWD }), print: true });
    await typeText(p.r, "zzzz");
    await press(p.r, RAW.enter);
    expect(p.exits).toEqual([]);
  });

  it("the preview starts at a role line and scrolls from the list with K and J (Shift+↑/↓)", async () => {
    const sessions = makeSessions(2, { cwd: CWD });
    const entries = Array.from({ length: 30 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      text: `reply ${i} first line\nreply ${i} second line`,
      toolCalls: [],
    }));
    const p = await renderApp({ sessions, preview: () => ({ entries, pathLength: 30 }) });
    await resize(p.r, 120, 30);
    let f = await waitForFrame(p.r, (x) => x.includes("reply 29 second line"));
    // The preview pane's text: what stands between its frame's "│" borders, right of the list's.
    const pane = (frame: string) => frame.split("\n").map((l) => l.split("││")[1]?.replace(/│$/, "").trim() ?? "");
    const below = (frame: string) => pane(frame).slice(pane(frame).findIndex((l) => l.startsWith("───")) + 1);
    expect(["you", "assistant"]).toContain(below(f)[0]);
    await press(p.r, "K", "K");
    f = p.r.lastFrame()!;
    expect(f).not.toContain("reply 29 second line");
    expect(f).toMatch(/↓ \d+ more lines/);
    // K at the top stops at the first message.
    for (let i = 0; i < 40; i++) await press(p.r, "K");
    expect(below(p.r.lastFrame()!).slice(0, 2)).toEqual(["you", "reply 0 first line"]);
    await press(p.r, RAW.shiftDown);
    expect(below(p.r.lastFrame()!)[0]).not.toBe("you");
    // Another session starts at its end again.
    await press(p.r, "j");
    await waitForFrame(p.r, (x) => x.includes("reply 29 second line"));
  });

  it("prints in picker mode and quits with q", async () => {
    const sessions = makeSessions(2, { cwd: CWD });
    const p = await renderApp({ sessions, print: true });
    expect(p.r.lastFrame()).toContain("Enter pick");
    await press(p.r, RAW.enter);
    expect(p.exits).toEqual([{ kind: "print", path: sessions[0].path }]);
    const q = await renderApp({ sessions });
    await press(q.r, "q");
    expect(q.exits).toEqual([{ kind: "quit" }]);
  });

  it("keeps the selection on its session while rows arrive", async () => {
    const m = manualScan();
    const first = makeSessions(3, { cwd: CWD });
    const { r } = await renderApp({ deps: { scan: m.scan } });
    expect(r.lastFrame()).toContain("scanning");
    await settle();
    await act(async () => m.handlers().onSummaries?.(first));
    await waitForFrame(r, (f) => f.includes("session 0"));
    await press(r, RAW.down);
    const newer = makeSummary({ cwd: CWD, firstMessage: "brand new", modified: new Date(Date.now()) });
    await act(async () => m.handlers().onSummaries?.([newer]));
    await waitForFrame(r, (f) => f.includes("brand new"));
    expect(selectedLine(r.lastFrame()!)).toContain("session 1");
    await act(async () => m.finish([...first, newer]));
    await waitForFrame(r, (f) => !f.includes("scanning"));
  });

  it("shows the too-small notice and recovers on resize", async () => {
    const { r } = await renderApp({ sessions: makeSessions(2, { cwd: CWD }) });
    await resize(r, 50, 10);
    expect(r.lastFrame()).toContain("terminal too small");
    await resize(r, 120, 30);
    expect(r.lastFrame()).toContain("session 0");
  });

  it("loads the preview lazily and shows facts and the tail", async () => {
    const sessions = makeSessions(2, { cwd: CWD });
    const h = await renderApp({
      sessions,
      preview: () => ({
        entries: [
          { role: "user", text: "please run the tests", toolCalls: [] },
          { role: "assistant", text: "running", toolCalls: ["bash: npm test"] },
        ],
        pathLength: 2,
      }),
    });
    await resize(h.r, 140, 40);
    expect(h.r.lastFrame()).toContain(sessions[0].id);
    const f = await waitForFrame(h.r, (x) => x.includes("bash: npm test"));
    expect(f).toContain("please run the tests");
    expect(h.previewLoads).toEqual([sessions[0].path]);
  });

  it("renders escape sequences from session files as plain text", async () => {
    const { r } = await renderApp({
      sessions: [makeSummary({ cwd: CWD, firstMessage: "evil \x1b[2J\x1b]0;pwned\x07title" })],
    });
    const f = r.lastFrame()!;
    expect(f).toContain("evil title");
    expect(f).not.toContain("\x1b]0");
  });
});
