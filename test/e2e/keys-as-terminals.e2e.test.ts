import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "../helpers/tmp-store.js";
import { KEY, type RunningApp, shQuote, startApp, startShell } from "./pty.js";
import { waitForFile } from "./driver.js";

/*
 * Issue 13 end to end: each scenario the issue describes is sent as ONE write to the
 * pseudo-terminal (as SSH, tmux or a key macro deliver it), then again as a bracketed
 * paste, and the screen and the files on disk are checked. Then the terminal's own ways
 * out: SIGHUP and a terminal that vanishes.
 */

const apps: RunningApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));
afterAll(cleanupTmp);

function track(app: RunningApp): RunningApp {
  apps.push(app);
  return app;
}

const msg = (T: string, id: string, parentId: string | null, role: "user" | "assistant", text: string) =>
  role === "user"
    ? { type: "message", id, parentId, timestamp: T, message: { role, content: text, timestamp: 1 } }
    : {
        type: "message",
        id,
        parentId,
        timestamp: T,
        message: { role, content: [{ type: "text", text }], stopReason: "stop", model: "m" },
      };

let n = 0;
/** A session file titled `title` with header cwd `cwd`; `branched` gives it two branches. */
function addSession(store: string, cwd: string, title: string, ageHours: number, branched = false): string {
  n++;
  const id = `01a1fcb4-0000-7000-8000-${String(n).padStart(12, "0")}`;
  const dir = join(store, `--keys-e2e-${n}--`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `2026-11-21T07-00-${String(n).padStart(2, "0")}-000Z_${id}.jsonl`);
  // The younger session is the newer one in the list.
  const T = new Date(Date.parse("2026-11-21T12:00:00.000Z") - ageHours * 3_600_000).toISOString();
  const m = (...a: Parameters<typeof msg> extends [string, ...infer R] ? R : never) => msg(T, ...a);
  const lines = [
    { type: "session", version: 3, id, timestamp: T, cwd },
    m("u1", null, "user", title),
    m("a1", "u1", "assistant", "first answer"),
  ];
  if (branched)
    lines.push(
      m("u2", "a1", "user", "left branch"),
      m("a2", "u2", "assistant", "left answer"),
      m("u3", "a1", "user", "right branch"),
      m("a3", "u3", "assistant", "right answer"),
    );
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  // Written a while ago: no "written in the last seconds" question before a label.
  const old = new Date(Date.now() - ageHours * 3_600_000);
  utimesSync(path, old, old);
  return path;
}

/** A copy of the fixtures store plus "huge tool" and "deep branch off" in a fresh project folder. */
function store() {
  const dir = copyStore(PI_STORE);
  const project = realpathSync(makeTmpDir("pi-sessions-keys-project-"));
  const huge = addSession(dir, project, "huge tool", 2);
  const deep = addSession(dir, project, "deep branch off", 1, true);
  const data = makeTmpDir("pi-sessions-keys-data-");
  const env = { XDG_DATA_HOME: join(data, "data"), XDG_STATE_HOME: join(data, "state") };
  return { dir, project, huge, deep, env, trash: join(env.XDG_DATA_HOME, "Trash") };
}

/** A fake pi: writes its argv and cwd to $FAKE_PI_OUT and exits 7. */
function fakePi(): { command: string; out: string } {
  const dir = makeTmpDir("pi-sessions-keys-pi-");
  const script = join(dir, "fake-pi.mjs");
  writeFileSync(
    script,
    `import { writeFileSync } from "node:fs";\nwriteFileSync(process.env.FAKE_PI_OUT, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));\nprocess.exit(7);\n`,
  );
  return { command: `${process.execPath} ${script}`, out: join(dir, "out.json") };
}

/** The browser on the whole store: the newest two first, "deep branch off" selected, then "huge tool". */
async function open(
  s: ReturnType<typeof store>,
  extra: { env?: Record<string, string | undefined>; args?: string[]; cols?: number; rows?: number } = {},
) {
  const app = track(
    startApp(["--session-dir", s.dir, "--all", ...(extra.args ?? [])], {
      cwd: s.project,
      env: { ...s.env, ...extra.env },
      cols: extra.cols,
      rows: extra.rows,
    }),
  );
  if ((extra.cols ?? 120) >= 60 && (extra.rows ?? 30) >= 15) await app.waitFor(settled);
  return app;
}

/** The rows are in (the scan is done) and in their final order. */
function settled(screen: string): boolean {
  const lines = screen.split("\n");
  const at = lines.findIndex((l) => l.includes("❯"));
  return (
    !screen.includes("scanning") &&
    at >= 0 &&
    lines[at].includes("deep branch off") &&
    (lines[at + 1] ?? "").includes("huge tool")
  );
}

const entries = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
const selectedLine = (screen: string) => screen.split("\n").find((l) => l.includes("❯")) ?? "";
const PASTE = (text: string) => `\x1b[200~${text}\x1b[201~`;

describe("keys sent in one write do what was typed", () => {
  it("/huge tool Enter Enter resumes that session in pi", async () => {
    const s = store();
    const pi = fakePi();
    const app = await open(s, { args: ["--pi-command", pi.command], env: { FAKE_PI_OUT: pi.out } });
    await app.press("/huge tool\r\r");
    expect((await app.exited).exitCode).toBe(7);
    const got = JSON.parse(readFileSync(pi.out, "utf8"));
    expect(got.argv).toEqual(["--session", s.huge]);
    expect(realpathSync(got.cwd)).toBe(s.project);
  });

  it("/deep branch off Enter, then t 800 ms later, opens that session's tree", async () => {
    const s = store();
    const app = await open(s);
    // Away from "deep branch off" first: only the search can bring it back under the cursor.
    await app.press("j");
    await app.waitFor((x) => selectedLine(x).includes("huge tool"));
    await app.press("/deep branch off\r");
    await new Promise((r) => setTimeout(r, 800));
    await app.press("t");
    const screen = await app.waitFor((x) => x.includes("tree · deep branch off"));
    // The t was a key, not text in the search.
    expect(screen).not.toContain("deep branch off t");
    await app.press(KEY.escape, "q");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("Ctrl+R, Typed fast, Enter renames the selected session", async () => {
    const s = store();
    const app = await open(s);
    await app.press("/huge\r");
    await app.waitFor((x) => selectedLine(x).includes("huge tool") && x.includes("q quit"));
    await app.press(`${KEY.ctrl("r")}Typed fast\r`);
    await app.waitFor('Renamed to "Typed fast"');
    expect(entries(s.huge).filter((e) => e.type === "session_info")).toEqual([
      expect.objectContaining({ name: "Typed fast" }),
    ]);
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("in the rename and label fields Enter submits (never a space) and Backspace deletes: ab ⌫⌫ xy gives xy", async () => {
    const s = store();
    const app = await open(s);
    // The newest session, "deep branch off", is selected.
    await app.press(`${KEY.ctrl("r")}ab\x7f\x7fxy\r`);
    await app.waitFor('Renamed to "xy"');
    expect(
      entries(s.deep)
        .filter((e) => e.type === "session_info")
        .map((e) => e.name),
    ).toEqual(["xy"]);

    await app.press("t");
    await app.waitFor((x) => x.includes("tree · xy") && x.includes("← active"));
    // The file changed seconds ago, but by our own rename: the label is written without asking.
    await app.press("Lab\x7f\x7fxy\r");
    await app.waitFor((x) => selectedLine(x).includes("[xy]"));
    const labels = entries(s.deep).filter((e) => e.type === "label");
    expect(labels).toEqual([expect.objectContaining({ targetId: "a3", label: "xy" })]);
    // In the tree q goes back to the list, and the second q quits.
    await app.press("qq");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("behind 'terminal too small' d then y deletes nothing, and q still quits", async () => {
    const s = store();
    const app = await open(s, { cols: 50, rows: 12 });
    await app.waitFor("terminal too small");
    await app.press("dy");
    await app.press("d", "y");
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(s.huge) && existsSync(s.deep)).toBe(true);
    expect(existsSync(s.trash)).toBe(false);
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
    expect(existsSync(s.huge) && existsSync(s.deep)).toBe(true);
  });
});

describe("Enter in the tree resumes there, writing only as pi starts (issue 20)", () => {
  it("on a user message: nothing is written while pi cannot start; with pi, one Enter writes the position and starts it", async () => {
    const s = store();
    const before = readFileSync(s.deep, "utf8");
    const none = await open(s, { args: ["--pi-command", "/nonexistent/pi"] });
    await none.press("t");
    await none.waitFor((x) => x.includes("tree · deep branch off") && x.includes("← active"));
    // Up to the user message above the leaf, then Enter: pi cannot start, so nothing moves.
    await none.press(KEY.up);
    await none.waitFor((x) => /❯.*user:/.test(x));
    await none.press(KEY.enter);
    await none.waitFor("cannot resume");
    expect(readFileSync(s.deep, "utf8")).toBe(before);
    await none.press(KEY.escape, "q");
    expect((await none.exited).exitCode).toBe(0);

    const pi = fakePi();
    const app = await open(s, { args: ["--pi-command", pi.command], env: { FAKE_PI_OUT: pi.out } });
    await app.press("t");
    await app.waitFor((x) => x.includes("tree · deep branch off") && x.includes("← active"));
    await app.press(KEY.up);
    await app.waitFor((x) => /❯.*user:/.test(x));
    await app.press(KEY.enter);
    expect((await app.exited).exitCode).toBe(7);
    expect(JSON.parse(readFileSync(pi.out, "utf8")).argv).toEqual(["--session", s.deep]);
    // The position moved to before that message (pi's /tree rule): one entry appended, as pi started.
    const after = readFileSync(s.deep, "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(after.length).toBeGreaterThan(before.length);
  });
});

describe("a bracketed paste is text: it never submits and never runs commands", () => {
  it("pasted into the list it does nothing; pasted into the search its newlines are spaces and it does not submit", async () => {
    const s = store();
    const pi = fakePi();
    const app = await open(s, { args: ["--pi-command", pi.command], env: { FAKE_PI_OUT: pi.out } });
    await app.press(PASTE("/huge tool\r\r"));
    await app.waitFor("paste ignored");
    expect(settled(app.screen())).toBe(true);
    // Into the search: the text, one line, and the search still open.
    await app.press("/", PASTE("huge\rtool\r"));
    const screen = await app.waitFor((x) => x.includes("/huge tool ") && x.includes("1 match"));
    expect(screen).toContain("Enter keep");
    await app.press(KEY.escape, KEY.escape, "q");
    expect((await app.exited).exitCode).toBe(0);
    expect(existsSync(pi.out)).toBe(false);
  });

  it("pasted into the rename and label fields: newlines become spaces, nothing is written until Enter", async () => {
    const s = store();
    const app = await open(s);
    await app.press(KEY.ctrl("r"), PASTE("Typed\rfast\r"));
    await app.waitFor("Name: Typed fast");
    await new Promise((r) => setTimeout(r, 300));
    expect(entries(s.deep).some((e) => e.type === "session_info")).toBe(false);
    await app.press(KEY.ctrl("u"), PASTE("ab\nxy"), KEY.enter);
    await app.waitFor('Renamed to "ab xy"');
    expect(
      entries(s.deep)
        .filter((e) => e.type === "session_info")
        .map((e) => e.name),
    ).toEqual(["ab xy"]);

    await app.press("t");
    await app.waitFor((x) => x.includes("tree · ab xy") && x.includes("← active"));
    await app.press("L", PASTE("q\r\rq"));
    await app.waitFor("Label the entry");
    await new Promise((r) => setTimeout(r, 300));
    expect(entries(s.deep).some((e) => e.type === "label")).toBe(false);
    await app.press(KEY.enter); // our own rename wrote it last: no question
    await app.waitFor((x) => selectedLine(x).includes("[q  q]"));
    expect(
      entries(s.deep)
        .filter((e) => e.type === "label")
        .map((e) => e.label),
    ).toEqual(["q  q"]);
    await app.press("qq");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("bracketed paste is turned on with the alternate screen and off on the way out", async () => {
    const s = store();
    const app = await open(s);
    const on = app.raw().indexOf("\x1b[?2004h");
    expect(on).toBeGreaterThanOrEqual(0);
    expect(on).toBeGreaterThan(app.raw().indexOf("\x1b[?1049h"));
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
    const raw = app.raw();
    expect(raw.lastIndexOf("\x1b[?2004l")).toBeGreaterThan(raw.lastIndexOf("\x1b[?2004h"));
    expect(raw.lastIndexOf("\x1b[?1049l")).toBeGreaterThan(raw.lastIndexOf("\x1b[?2004h"));
  });
});

describe("the browser draws whatever CI says", () => {
  for (const ci of ["", "true"]) {
    it(`CI=${JSON.stringify(ci)}: live frames, and keys work`, async () => {
      const s = store();
      const app = await open(s, { env: { CI: ci } });
      await app.press("j");
      await app.waitFor((x) => selectedLine(x).includes("huge tool"));
      await app.press("q");
      expect((await app.exited).exitCode).toBe(0);
    });
  }
});

describe("the terminal goes away", () => {
  const quiet = (text: string) => expect(text).not.toMatch(/Assertion|node::|Error|\n\s+at /);

  it("SIGHUP: exit 129, quietly, the terminal restored", async () => {
    const s = store();
    const app = await open(s);
    app.kill("SIGHUP");
    expect((await app.exited).exitCode).toBe(129);
    const raw = app.raw();
    quiet(raw);
    expect(raw.lastIndexOf("\x1b[?1049l")).toBeGreaterThan(raw.lastIndexOf("\x1b[?1049h"));
    expect(raw.lastIndexOf("\x1b[?2004l")).toBeGreaterThan(raw.lastIndexOf("\x1b[?2004h"));
    expect(app.bufferType()).toBe("normal");
  });

  it("the terminal closes under it (it leads the session and gets the hang-up): exit 129, nothing on stderr but escapes", async () => {
    const s = store();
    const err = join(makeTmpDir(), "stderr.txt");
    // exec: the program itself leads the terminal's session, as when a terminal or SSH runs it.
    const app = track(
      startShell(`exec 2> ${shQuote(err)}; exec "$NODE" "$PI_SESSIONS_CLI" --session-dir ${shQuote(s.dir)} --all`, {
        cwd: s.project,
        env: s.env,
      }),
    );
    await app.waitFor(settled);
    app.hangUp();
    expect((await app.exited).exitCode).toBe(129);
    quiet(readFileSync(err, "utf8"));
  });

  it("the terminal closes under it without a SIGHUP reaching it (its shell ignores hang-ups): exit 129, quietly", async () => {
    const s = store();
    const dir = makeTmpDir();
    const err = join(dir, "stderr.txt");
    const code = join(dir, "code.txt");
    const app = track(
      startShell(
        `trap '' HUP; "$NODE" "$PI_SESSIONS_CLI" --session-dir ${shQuote(s.dir)} --all 2> ${shQuote(err)}; echo $? > ${shQuote(code)}`,
        { cwd: s.project, env: s.env },
      ),
    );
    await app.waitFor(settled);
    app.hangUp();
    await waitForFile(code, () => readFileSync(code, "utf8").endsWith("\n"));
    expect(readFileSync(code, "utf8").trim()).toBe("129");
    quiet(readFileSync(err, "utf8"));
    expect(readdirSync(s.dir).length).toBeGreaterThan(0);
  });
});
