import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { KEY, ROOT, startApp, type RunningApp } from "./pty.js";

const STORE = join(ROOT, "fixtures", "pi-generated", "agent", "sessions");
const apps: RunningApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));

describe("browser in a real terminal (smoke)", () => {
  it("shows rows from the store, narrows by search, and leaves the alternate screen on quit", async () => {
    const app = startApp(["--session-dir", STORE, "--all"]);
    apps.push(app);
    await app.waitFor("resume naïve");
    expect(app.bufferType()).toBe("alternate");
    await app.press("/");
    // A folder filter narrows for sure: the words alone also find "resume naïve" by its text
    // (full-text hits arrive a moment later, at once with the persistent index).
    await app.type("cwd:my-lib alpha fix");
    await app.press(KEY.enter);
    await app.waitFor((s) => s.includes("❯ alpha fix") && !s.includes("resume naïve"));
    await app.press("q");
    const { exitCode } = await app.exited;
    expect(exitCode).toBe(0);
    expect(app.bufferType()).toBe("normal");
    expect(app.raw()).toContain("\x1b[?1049l");
  });

  it("picker mode: Esc on the empty query cancels with 130, as fzf", async () => {
    const app = startApp(["--session-dir", STORE, "--all", "--print"]);
    apps.push(app);
    await app.waitFor("resume naïve");
    await app.press(KEY.escape);
    expect((await app.exited).exitCode).toBe(130);
    expect(app.bufferType()).toBe("normal");
  });

  it("Ctrl+C at the list leaves with 130, as an interrupt does (q leaves with 0)", async () => {
    const app = startApp(["--session-dir", STORE, "--all"]);
    apps.push(app);
    await app.waitFor("resume naïve");
    await app.press(KEY.ctrl("c"));
    expect((await app.exited).exitCode).toBe(130);
    expect(app.bufferType()).toBe("normal");
  });

  it.each([
    ["q", "q", 0],
    ["Ctrl+C", KEY.ctrl("c"), 130],
  ])("%s after the window grew leaves the alternate screen blank behind it", async (_, key, code) => {
    // tmux before 3.4 reflows what is left in the alternate screen to the width it was
    // entered at, and the rows that wrap land on the user's screen above the prompt: a
    // window widened from 120×36 to 200×50 showed ~14 rows of the list after q. xterm.js
    // does not do that, so the test reads what was left there at the moment of leaving.
    const app = startApp(["--session-dir", STORE, "--all"], { cols: 120, rows: 36 });
    apps.push(app);
    await app.waitFor("resume naïve");
    // Ink has drawn (its frames are synchronized updates): the rows may be a first screen
    // drawn before Ink loaded (with --all, the index's newest), and a resize then is no repaint.
    await app.waitFor(() => app.raw().includes("\x1b[?2026h"));
    const sized = app.raw().length;
    await app.resize(200, 50);
    // The browser's repaint after a resize has run (Ink's clear, then the screen cleared:
    // launch.tsx), and drawn every row at 50 rows: pressed earlier, the key could quit
    // between the two, on a blank screen, and the test pass without the fix.
    await app.waitFor(
      (s) => app.raw().includes("\x1b[G\x1b[2J\x1b[H", sized) && (s.split("\n")[49] ?? "").includes("q quit"),
    );
    await app.press(key);
    expect((await app.exited).exitCode).toBe(code);
    expect(app.bufferType()).toBe("normal");
    expect(app.screenAtLeave()?.trim()).toBe("");
  });

  it("a key pressed while the browser starts is read as a key, not echoed over the screen", async () => {
    const app = startApp(["--session-dir", STORE, "--all"]);
    apps.push(app);
    // Sent as the alternate screen opens, before the first frame: Ink turns raw mode on
    // only after that frame, and a terminal still in cooked mode echoes keys (and turns
    // Enter into a line feed).
    const ENTER_ALT_SCREEN = /\u001b\[\?1049h/;
    await app.pressOnOutput(ENTER_ALT_SCREEN, "§");
    await app.waitFor("resume naïve");
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
    expect(app.raw()).not.toContain("§");
  });
});
