import { afterAll, afterEach, describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "../helpers/tmp-store.js";
import { addProjectSession } from "../helpers/project-session.js";
import { KEY, shQuote, startApp, startShell, type RunningApp } from "./pty.js";

/*
 * The browser end to end in a real pseudo-terminal, on a temp copy of the fixtures
 * store plus sessions written for each test: resume with a fake pi, --print to a file,
 * escape sequences in session text, the too-small notice, scope and sort keys.
 */

const apps: RunningApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));
afterAll(cleanupTmp);

function start(...a: Parameters<typeof startApp>): RunningApp {
  const app = startApp(...a);
  apps.push(app);
  return app;
}

let n = 0;
/** Adds a session (header cwd = `cwd`) to `store` and returns its absolute path. */
const addSession = (store: string, cwd: string, firstMessage: string) =>
  addProjectSession(store, cwd, firstMessage, { n: ++n });

/** A store copy with one session whose cwd is a fresh folder; the app starts in that folder. */
function storeWithProject(firstMessage = "resume me please") {
  const store = copyStore(PI_STORE);
  const project = realpathSync(makeTmpDir("pi-sessions-e2e-project-"));
  const session = addSession(store, project, firstMessage);
  return { store, project, session };
}

/** A fake pi: writes its argv and cwd to $FAKE_PI_OUT and exits 7. */
function fakePi(): { script: string; out: string } {
  const dir = makeTmpDir("pi-sessions-e2e-pi-");
  const script = join(dir, "fake-pi.mjs");
  writeFileSync(
    script,
    `import { writeFileSync } from "node:fs";\n` +
      `writeFileSync(process.env.FAKE_PI_OUT, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));\n` +
      `process.exit(7);\n`,
  );
  return { script, out: join(dir, "out.json") };
}

describe("browser flows in a real terminal", () => {
  it("Enter resumes: runs pi --session <abs path> in the session's cwd and exits with pi's code", async () => {
    const { store, project, session } = storeWithProject();
    const pi = fakePi();
    // The launcher's own cwd is somewhere else: the session's header cwd must win.
    const elsewhere = realpathSync(makeTmpDir());
    const app = start(["--session-dir", store, "--all", "--pi-command", `${process.execPath} ${pi.script}`], {
      cwd: elsewhere,
      env: { FAKE_PI_OUT: pi.out },
    });
    await app.waitFor("resume me please");
    // Newest first: the new session is the first row and selected.
    await app.waitFor((s) => /❯ .*resume me please/.test(s));
    await app.press(KEY.enter);
    expect((await app.exited).exitCode).toBe(7);
    const got = JSON.parse(readFileSync(pi.out, "utf8"));
    expect(got.argv).toEqual(["--session", session]);
    expect(realpathSync(got.cwd)).toBe(project);
    expect(app.bufferType()).toBe("normal");
    expect(app.raw()).toContain("\x1b[?1049l");
  });

  it("--print writes exactly the absolute path and a newline to stdout and exits 0", async () => {
    const { store, project, session } = storeWithProject("pick me");
    const out = join(makeTmpDir(), "picked.txt");
    const app = startShell(`"$NODE" "$PI_SESSIONS_CLI" --session-dir ${shQuote(store)} --print > ${shQuote(out)}`, {
      cwd: project,
    });
    apps.push(app);
    // Started in the project folder: its one session is the scope.
    await app.waitFor((s) => /❯ .*pick me/.test(s) && s.includes("this folder"));
    await app.press(KEY.enter);
    expect((await app.exited).exitCode).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(session + "\n");
    // The UI went to the terminal, not into the file.
    expect(app.raw()).toContain("pick me");
  });

  it("--print opens typing into the search, and Enter picks the best hit even after the cursor moved", async () => {
    const { store, project } = storeWithProject("alpha notes");
    addSession(store, project, "beta keyboard shortcuts");
    const best = addSession(store, project, "keyboard layout");
    addSession(store, project, "gamma notes");
    const out = join(makeTmpDir(), "picked.txt");
    const app = startShell(`"$NODE" "$PI_SESSIONS_CLI" --session-dir ${shQuote(store)} --print > ${shQuote(out)}`, {
      cwd: project,
    });
    apps.push(app);
    await app.waitFor((s) => s.includes("gamma notes") && s.includes("alpha notes"));
    // Still in the field (Esc would cancel the pick, as in fzf), move the cursor down to the
    // last row, then type the query: as SSH delivers it, in one read.
    await app.press(KEY.down + KEY.down + KEY.down);
    await app.waitFor((s) => /❯ .*alpha notes/.test(s));
    await app.press("keyboard l");
    await app.waitFor((s) => /❯ .*keyboard layout/.test(s));
    await app.press(KEY.enter);
    expect((await app.exited).exitCode).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(best + "\n");
  });

  it("the demo store (npm start without a store of one's own) is a temp copy, removed when the browser ends", async () => {
    const home = makeTmpDir("pi-sessions-e2e-home-");
    const temp = makeTmpDir("pi-sessions-e2e-tmp-");
    const cache = makeTmpDir("pi-sessions-e2e-cache-");
    const app = start(
      ["--fallback-store", join(import.meta.dirname, "..", "..", "fixtures", "pi-generated", "agent", "sessions")],
      {
        cwd: home,
        env: {
          HOME: home,
          TMPDIR: temp,
          PI_SESSIONS_CACHE_DIR: cache,
          PI_CODING_AGENT_DIR: undefined,
          PI_CODING_AGENT_SESSION_DIR: undefined,
        },
      },
    );
    await app.waitFor("a copy of the demo store");
    expect(readdirSync(temp).filter((n) => n.startsWith("pi-sessions-demo-"))).toHaveLength(1);
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
    expect(readdirSync(temp).filter((n) => n.startsWith("pi-sessions-demo-"))).toEqual([]);
    // Nor an index of it left in the cache folder.
    expect(existsSync(join(cache, "index"))).toBe(false);
  });

  it("renders escape sequences in session text as plain text", async () => {
    const evil = "\x1b[31mRED\x1b[0m alert \x1b]0;pwned\x07 title \u009b31m c1 \x1b[2J cleared";
    const { store, project } = storeWithProject(evil);
    const app = start(["--session-dir", store], { cwd: project });
    const screen = await app.waitFor("cleared");
    const row = screen.split("\n").find((l) => l.includes("cleared"))!;
    expect(row).toMatch(/RED alert +title +c1 +cleared/);
    expect(screen).not.toContain("pwned");
    expect(screen).not.toMatch(/\[31m|\[2J|\]0;/);
    expect(app.raw()).not.toContain("]0;pwned");
    expect(app.raw()).not.toContain("\u009b31m");
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("shows the too-small notice below 60×15 and lays out again on resize", async () => {
    const app = start(["--session-dir", PI_STORE, "--all"], { cols: 50, rows: 12 });
    await app.waitFor("terminal too small");
    expect(app.screen()).toContain("50×12, need 60×15");
    await app.resize(100, 30);
    await app.waitFor((s) => s.includes("resume naïve") && !s.includes("too small"));
    await app.resize(70, 14);
    await app.waitFor((s) => s.includes("terminal too small") && s.includes("70×14"));
    await app.resize(80, 24);
    await app.waitFor((s) => s.includes("resume naïve") && !s.includes("too small"));
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("Tab toggles the scope and s cycles the sort (the header says so)", async () => {
    const { store, project } = storeWithProject("only here");
    const app = start(["--session-dir", store], { cwd: project });
    await app.waitFor((s) => s.includes("this folder · 1/1") && s.includes("sort: recent"));
    await app.press(KEY.tab);
    await app.waitFor((s) => s.includes("all folders") && s.includes("resume naïve"));
    await app.press(KEY.tab);
    await app.waitFor((s) => s.includes("this folder · 1/1") && !s.includes("resume naïve"));
    for (const sort of ["created", "name", "messages", "size", "threaded", "recent"]) {
      await app.press("s");
      await app.waitFor(`sort: ${sort}`);
    }
    await app.press(KEY.ctrl("s"));
    await app.waitFor("sort: created");
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("full-text search finds a session by text beyond its first message and shows the snippet", async () => {
    const { store, project } = storeWithProject("an unrelated title");
    // A second session in the same folder whose later message holds the word.
    const p = addSession(store, project, "another title");
    const lines = readFileSync(p, "utf8").trimEnd().split("\n");
    const t = "2026-11-21T07:00:00.000Z";
    lines.push(
      JSON.stringify({
        type: "message",
        id: "a2",
        parentId: "a1",
        timestamp: t,
        message: {
          role: "assistant",
          content: [{ type: "text", text: "the flux capacitor is charged" }],
          stopReason: "stop",
          model: "m",
        },
      }),
    );
    writeFileSync(p, lines.join("\n") + "\n");
    expect(existsSync(p)).toBe(true);
    const app = start(["--session-dir", store], { cwd: project });
    await app.waitFor("another title");
    await app.press("/");
    await app.type("capacitor");
    // The preview follows the cursor once it rests (PREVIEW_SETTLE_MS): until then it shows
    // the session selected before the search. Settled, "another title" is in the row and in
    // the preview's first message.
    const screen = await app.waitFor(
      (s) => s.includes("↳ the flux capacitor is charged") && s.split("another title").length > 2,
    );
    expect(screen).toContain("another title");
    expect(screen).not.toContain("an unrelated title");
    await app.press(KEY.escape, "q");
    expect((await app.exited).exitCode).toBe(0);
  });
});
