import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, rmSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cwdFolderName } from "../../src/store/scope.js";
import { cleanupTmp, makeTmpDir, settle } from "../helpers/tmp-store.js";
import { CLI, startApp, type RunningApp } from "./pty.js";

/*
 * The first screen drawn before Ink loads (components/app/firstScreen.ts): in the default
 * scope, in a folder whose pi project folder holds sessions, the rows are on the screen
 * before Ink's first frame, and a key pressed on them acts on what was shown. With --all,
 * the early scan's rows are drawn the same way once they are there, before Ink's first frame.
 */

const apps: RunningApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));
afterAll(cleanupTmp);

/** pi's default layout: agent/sessions/--<cwd>--/, with `n` sessions, the newest named "newest here". */
function projectStore(n: number) {
  const root = makeTmpDir("pi-sessions-first-");
  const cwd = join(root, "project");
  mkdirSync(cwd);
  const dir = join(root, "agent", "sessions", cwdFolderName(cwd));
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `01a1fcb4-0000-7000-8000-${String(i).padStart(12, "0")}`;
    const ts = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
    const file = join(dir, `${ts.replace(/[:.]/g, "-")}_${id}.jsonl`);
    const title = i === n - 1 ? "newest here" : `older ${i}`;
    const lines = [
      { type: "session", version: 3, id, timestamp: ts, cwd },
      {
        type: "message",
        id: `u${i}`,
        parentId: null,
        timestamp: ts,
        message: { role: "user", content: [{ type: "text", text: title }], timestamp: Date.parse(ts) },
      },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    files.push(file);
  }
  const pi = join(root, "fake-pi.mjs");
  writeFileSync(
    pi,
    `import { writeFileSync } from "node:fs";\nwriteFileSync(process.env.FAKE_PI_OUT, JSON.stringify(process.argv.slice(2)));\n`,
  );
  return {
    root,
    cwd,
    agentDir: join(root, "agent"),
    newest: files[n - 1],
    oldest: files[0],
    pi: `${process.execPath} ${pi}`,
    out: join(root, "pi-out.json"),
  };
}

/** A project store of `n` sessions, written a while ago (not "racy") and indexed: --all's first screen draws from it. */
function indexedStore(n: number) {
  const s = projectStore(n);
  settle(s.root);
  const env = {
    PI_CODING_AGENT_DIR: s.agentDir,
    PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-"),
    // Drawn only for a store of many sessions unless told.
    PI_SESSIONS_FIRST_SCREEN_MIN_ROWS: "0",
  };
  execFileSync(process.execPath, [CLI, "index"], { env: { ...process.env, ...env } });
  return { s, env };
}

describe("the first screen, before Ink (pty)", () => {
  /**
   * Starts the browser, presses Enter the moment the newest row is written (before Ink has
   * drawn anything: Ink's frames are synchronized updates, the first screen comes before
   * any), checks that row was resumed, and gives what the program wrote.
   */
  async function enterOnFirstRow(s: ReturnType<typeof projectStore>, args: string[]): Promise<string> {
    const app = startApp([...args, "--pi-command", s.pi], {
      cwd: s.cwd,
      // The early scan's rows are then there for the screen drawn before Ink, however loaded the machine.
      env: { PI_CODING_AGENT_DIR: s.agentDir, FAKE_PI_OUT: s.out, PI_SESSIONS_TEST_FIRST_FRAME_DELAY_MS: "400" },
    });
    apps.push(app);
    await app.pressOnOutput(/newest here/, "\r");
    expect((await app.exited).exitCode).toBe(0);
    const raw = app.raw();
    expect(raw.indexOf("newest here")).toBeGreaterThan(-1);
    const firstInk = raw.indexOf("\x1b[?2026h");
    expect(firstInk === -1 || raw.indexOf("newest here") < firstInk).toBe(true);
    expect(JSON.parse(readFileSync(s.out, "utf8"))).toEqual(["--session", s.newest]);
    return raw;
  }

  it("shows this folder's rows before Ink's first frame, and Enter on them resumes the selected one", async () => {
    await enterOnFirstRow(projectStore(6), []);
  });

  it("with --all, the rows the early scan found are drawn the same way just before Ink's first frame", async () => {
    expect(await enterOnFirstRow(projectStore(3), ["--all"])).toMatch(/all folders · 3\/3/);
  });

  it("with --all and an index, draws the index's newest rows (their files checked) while the scan checks the rest", async () => {
    const { s, env } = indexedStore(3);
    const raw = await (async () => {
      const app = startApp(["--all", "--pi-command", s.pi], { cwd: s.cwd, env: { ...env, FAKE_PI_OUT: s.out } });
      apps.push(app);
      await app.pressOnOutput(/newest here/, "\r");
      expect((await app.exited).exitCode).toBe(0);
      return app.raw();
    })();
    // Drawn before the scan had the list (its header still scanning), then the whole list.
    const firstRow = raw.indexOf("newest here");
    expect(raw.slice(0, firstRow)).toMatch(/all folders · 3\/3 · sort: recent ↓ · scanning…/);
    expect(JSON.parse(readFileSync(s.out, "utf8"))).toEqual(["--session", s.newest]);
    // The newest gone since (the index still has its row): it is never on the screen.
    rmSync(s.newest);
    const app = startApp(["--all"], { cwd: s.cwd, env });
    apps.push(app);
    await app.waitFor((screen) => screen.includes("older 1") && /all folders · 2\/2/.test(screen));
    expect(app.raw()).not.toMatch(/newest here/);
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("with --all and an index, drops keys typed on its rows when the list's first rows are others, and says so", async () => {
    const { s, env } = indexedStore(40);
    // pi resumed the oldest session since: a reply appended makes it the list's first row,
    // while the snapshot's newest rows (drawn first) do not hold it.
    const ts = new Date(Date.UTC(2026, 5, 1)).toISOString();
    const reply = {
      type: "message",
      id: "a0",
      parentId: "u0",
      timestamp: ts,
      message: {
        role: "assistant",
        content: [{ type: "text", text: "reply" }],
        stopReason: "stop",
        model: "m",
        timestamp: Date.parse(ts),
      },
    };
    appendFileSync(s.oldest, JSON.stringify(reply) + "\n");
    const before = new Date(Date.now() - 60_000);
    utimesSync(s.oldest, before, before);
    const app = startApp(["--all", "--pi-command", s.pi], {
      cwd: s.cwd,
      // The key below is then read before Ink's first frame, however loaded the machine (1.5 s
      // was not: a loaded CI run read it after, and it rightly acted on the row then shown).
      env: { ...env, FAKE_PI_OUT: s.out, PI_SESSIONS_TEST_FIRST_FRAME_DELAY_MS: "5000" },
      rows: 16,
    });
    apps.push(app);
    // Enter on the first screen's selected row, "newest here": not the list's first row.
    await app.pressOnOutput(/newest here/, "\r");
    await app.waitFor(/the list changed as it loaded: 1 key typed before it was not applied/);
    expect(existsSync(s.out)).toBe(false);
    // A key after Ink's first frame acts on the list shown: its first row, the oldest session.
    await app.waitFor((screen) => /❯.*older 0/.test(screen));
    await app.press("\r");
    expect((await app.exited).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(s.out, "utf8"))).toEqual(["--session", s.oldest]);
  });

  it("leaves nothing of its own lines under Ink's frames (a header it drew still 'scanning…')", async () => {
    const s = projectStore(3);
    // Three launches: Ink's first frame often has the list complete by then, and its header is shorter.
    for (const args of [[], [], ["--all"]]) {
      const app = startApp(args, {
        cwd: s.cwd,
        env: { PI_CODING_AGENT_DIR: s.agentDir, PI_SESSIONS_TEST_FIRST_FRAME_DELAY_MS: "400" },
      });
      apps.push(app);
      // Ink has drawn (its frames are synchronized updates), and the list is complete.
      await app.waitFor(() => app.raw().includes("\x1b[?2026h"));
      await app.waitFor((screen) => screen.includes("newest here") && /sort: recent ↓/.test(screen));
      await new Promise((r) => setTimeout(r, 300));
      expect(app.screen().split("\n")[0]).not.toMatch(/scanning/);
      // Whether its first frame's lines are shorter depends on how far the scan got by then:
      // the screen is cleared inside that frame's synchronized update, whatever it holds.
      const raw = app.raw();
      expect(raw.indexOf("\x1b[?2026h\x1b[2J\x1b[H")).toBe(raw.indexOf("\x1b[?2026h"));
      expect(raw.indexOf("newest here")).toBeLessThan(raw.indexOf("\x1b[?2026h"));
      // The first screen's header was drawn (this folder's: before any scan) under Ink's.
      if (args.length === 0) expect(app.raw()).toMatch(/scanning…/);
      await app.press("q");
      expect((await app.exited).exitCode).toBe(0);
    }
  });

  it("PI_SESSIONS_FIRST_SCREEN=0 turns it off, in this folder and with --all", async () => {
    const s = projectStore(2);
    for (const args of [[], ["--all"]]) {
      const app = startApp(args, {
        cwd: s.cwd,
        env: { PI_CODING_AGENT_DIR: s.agentDir, PI_SESSIONS_FIRST_SCREEN: "0" },
      });
      apps.push(app);
      await app.waitFor("newest here");
      const raw = app.raw();
      expect(raw.indexOf("\x1b[?2026h")).toBeGreaterThan(-1);
      expect(raw.indexOf("\x1b[?2026h")).toBeLessThan(raw.indexOf("newest here"));
      await app.press("q");
      expect((await app.exited).exitCode).toBe(0);
    }
  });
});
