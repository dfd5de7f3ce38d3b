import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cwdFolderName } from "../../src/store/scope.js";
import { osc52 } from "../../src/text/osc52.js";
import { askPi, oracleSkipReason, type PiSession } from "../oracle/pi15.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "../helpers/tmp-store.js";
import { appStarter, KEY } from "./pty.js";

/*
 * Issue 16 in a real terminal: the transcript reader, copy through OSC 52 (the sequence
 * checked in the raw output), export (the JSONL read back by pi 1.5.2), `n`, `D` and the
 * mouse, on a temp copy of the fixture store plus a branched session in a project folder.
 */

// Every program a test starts is killed after it.
const start = appStarter();
afterAll(cleanupTmp);

let n = 0;
/**
 * A branched session in `cwd`'s project folder:
 *   u1 ─ a1 ─┬─ u2 ─ c2 ─ r2 ─ a2     (older)
 *            └─ u3 ─ a3               (active)
 */
function addSession(store: string, cwd: string, title: string): string {
  n++;
  const id = `01a1fcb4-0000-7000-8000-${String(n).padStart(12, "0")}`;
  const dir = join(store, cwdFolderName(cwd));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `2026-11-21T07-00-0${n}-000Z_${id}.jsonl`);
  let t = Date.parse("2026-11-21T07:00:00.000Z") + n * 60_000;
  const at = () => new Date((t += 1000)).toISOString();
  // Assistant turns carry usage, as pi writes them (pi's /session totals read it).
  const usage = {
    input: 10,
    output: 5,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 15,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const msg = (eid: string, parentId: string | null, message: Record<string, unknown>) => ({
    type: "message",
    id: eid,
    parentId,
    timestamp: at(),
    message: message.role === "assistant" ? { provider: "p", api: "a", usage, timestamp: 1, ...message } : message,
  });
  const output = Array.from({ length: 60 }, (_, i) => `listing line ${i}`).join("\n");
  const lines = [
    { type: "session", version: 3, id, timestamp: at(), cwd },
    msg("u1", null, { role: "user", content: title, timestamp: 1 }),
    msg("a1", "u1", {
      role: "assistant",
      content: [{ type: "text", text: "first answer" }],
      stopReason: "stop",
      model: "m",
    }),
    msg("u2", "a1", { role: "user", content: "question two", timestamp: 2 }),
    msg("c2", "u2", {
      role: "assistant",
      content: [{ type: "toolCall", id: "t2", name: "bash", arguments: { command: "ls -la" } }],
      stopReason: "toolUse",
      model: "m",
    }),
    msg("r2", "c2", {
      role: "toolResult",
      toolCallId: "t2",
      toolName: "bash",
      content: [{ type: "text", text: output }],
      isError: false,
    }),
    msg("a2", "r2", {
      role: "assistant",
      content: [{ type: "text", text: "answer two" }],
      stopReason: "stop",
      model: "m",
    }),
    msg("u3", "a1", { role: "user", content: "question three", timestamp: 3 }),
    msg("a3", "u3", {
      role: "assistant",
      content: [{ type: "text", text: "answer three" }],
      stopReason: "stop",
      model: "m",
    }),
  ];
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

function project(titles = ["read me please"]) {
  const store = copyStore(PI_STORE);
  const dir = realpathSync(makeTmpDir("pi-sessions-e2e-project-"));
  const sessions = titles.map((t) => addSession(store, dir, t));
  // The trash and its log in the temp dir too.
  const env = { XDG_DATA_HOME: join(dir, "..", "data"), XDG_STATE_HOME: join(dir, "..", "state") };
  return { store, dir, sessions, env };
}

function fakePi(): { script: string; out: string } {
  const dir = makeTmpDir("pi-sessions-e2e-pi-");
  const script = join(dir, "fake-pi.mjs");
  writeFileSync(
    script,
    `import { writeFileSync } from "node:fs";\nwriteFileSync(process.env.FAKE_PI_OUT, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));\nprocess.exit(7);\n`,
  );
  return { script, out: join(dir, "out.json") };
}

const selected = (s: string) => s.split("\n").find((l) => l.includes("❯")) ?? "";
const skipPi = oracleSkipReason();

describe("reader, copy, export in a real terminal", () => {
  it("v reads the active branch; ] goes to the sibling branch; z expands a tool; y copies (OSC 52); e exports JSONL that pi 1.5.2 opens; q goes back; p and c copy", async () => {
    const { store, dir, sessions, env } = project();
    const app = start(["--session-dir", store], { cwd: dir, env, cols: 100, rows: 30 });
    await app.waitFor((s) => /❯ .*read me please/.test(s));
    // Mouse reporting is on while the browser runs.
    expect(app.raw()).toContain("\x1b[?1000h\x1b[?1006h");

    await app.press("v");
    let screen = await app.waitFor((s) => s.includes("Reader") && s.includes("answer three"));
    expect(screen).toContain("branch 2 of 2");
    expect(screen).not.toContain("answer two");

    await app.press("]");
    screen = await app.waitFor((s) => s.includes("answer two") && s.includes("branch 1 of 2"));
    expect(screen).toContain("▸ bash: ls -la · 60 lines");
    expect(screen).not.toContain("listing line 3");
    // The cursor is on the sibling's first entry: y copies it.
    await app.press("y");
    await app.waitFor("copied your message");
    expect(app.raw()).toContain(osc52("question two"));

    await app.press("j", "j", "j", "z");
    screen = await app.waitFor("listing line 9");
    expect(screen).toContain("50 more lines");

    await app.press("e");
    await app.waitFor("Export");
    await app.press("l");
    screen = await app.waitFor("exported");
    const name = readdirSync(dir).find((f) => f.endsWith(".jsonl"))!;
    expect(screen).toContain(`./${name}`);

    await app.press("q");
    await app.waitFor((s) => !s.includes("Reader") && /❯ .*read me please/.test(s));
    await app.press("p");
    await app.waitFor("copied the file path");
    expect(app.raw()).toContain(osc52(sessions[0]));
    await app.press("c");
    await app.waitFor("copied the resume command");
    expect(app.raw()).toContain(osc52(`cd ${dir} && pi --session ${sessions[0]}`));
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
    expect(app.raw()).toContain("\x1b[?1006l\x1b[?1000l");

    if (skipPi) return;
    // pi 1.5.2 opens the export as a session: the branch the reader showed, nothing else.
    const [got] = await askPi<PiSession>([{ op: "describe", file: join(dir, name) }]);
    expect(got.header).toMatchObject({ type: "session", version: 3, cwd: dir });
    expect(got.branch).toEqual(["u1", "a1", "u2", "c2", "r2", "a2"]);
    expect(got.entryCount).toBe(6);
    expect(readFileSync(sessions[0], "utf8").split("\n").filter(Boolean)).toHaveLength(9);
  }, 60_000);

  it("in the tree: y copies the entry, v reads the branch through it, q comes back to the tree", async () => {
    const { store, dir, env } = project(["tree and reader"]);
    const app = start(["--session-dir", store], { cwd: dir, env, cols: 100, rows: 30 });
    await app.waitFor((s) => /❯ .*tree and reader/.test(s));
    await app.press("t");
    await app.waitFor((s) => s.includes("tree ·") && s.includes("← active"));
    // The cursor starts on the leaf: the last answer.
    await app.press("y");
    await app.waitFor("copied the entry's text");
    expect(app.raw()).toContain(osc52("answer three"));
    await app.press("v");
    // (The tree's entry preview shows "answer three" too: wait for the reader's own cursor.)
    const screen = await app.waitFor((s) => s.includes("Reader") && /❯ Assistant/.test(s));
    expect(screen).toContain("answer three");
    await app.press("q");
    await app.waitFor((s) => s.includes("tree ·") && !s.includes("Reader"));
  }, 30_000);

  it("a hands the terminal to pi with no session, in the session's folder (Ctrl+N is pi's named filter)", async () => {
    const { store, dir, env } = project(["new here"]);
    const pi = fakePi();
    const elsewhere = realpathSync(makeTmpDir());
    const app = start(["--session-dir", store, "--all", "--pi-command", `${process.execPath} ${pi.script}`], {
      cwd: elsewhere,
      env: { ...env, FAKE_PI_OUT: pi.out },
    });
    await app.waitFor((s) => s.includes("q quit") && !s.includes("scanning"));
    await app.press("/");
    await app.type("new here");
    await app.waitFor((s) => /❯ .*new here/.test(s));
    await app.press(KEY.enter);
    await app.waitFor((s) => s.includes("q quit") && /❯ .*new here/.test(s));
    await app.press(KEY.ctrl("n"));
    await app.waitFor("named sessions only");
    await app.press(KEY.ctrl("n"));
    await app.waitFor("every session, named or not");
    await app.press("a");
    expect((await app.exited).exitCode).toBe(7);
    const got = JSON.parse(readFileSync(pi.out, "utf8"));
    expect(got.argv).toEqual([]);
    expect(realpathSync(got.cwd)).toBe(dir);
    expect(app.bufferType()).toBe("normal");
  }, 30_000);

  it("D deletes permanently only after the second confirmation, which takes Y: a repeated y cancels, in one read too", async () => {
    // Two sessions: a Dyy that deleted the first would leave the D y Y below the second to delete.
    const { store, dir, sessions, env } = project(["keep me as well", "delete me for good"]);
    const app = start(["--session-dir", store], { cwd: dir, env });
    await app.waitFor((s) => /❯ .*delete me for good/.test(s));
    await app.press("D");
    await app.waitFor("Delete permanently, not to the trash");
    // Enter cancels: only y goes on.
    await app.press(KEY.enter);
    await app.waitFor("not deleted");
    await app.press("D");
    await app.waitFor("Delete permanently, not to the trash");
    await app.press("y");
    await app.waitFor("This cannot be undone");
    // The second question takes Y: y (a held key, a double tap) cancels it.
    await app.press("y");
    await app.waitFor((x) => !x.includes("This cannot be undone") && x.includes("not deleted"));
    expect(existsSync(sessions[1])).toBe(true);
    // The same keys in one read, then the real thing.
    await app.press("Dyy");
    await app.press("D", "y", "Y");
    await app.waitFor("Deleted 1 session permanently");
    await app.waitFor((x) => !/delete me for good/.test(x) && /❯ .*keep me as well/.test(x));
    expect(existsSync(sessions[1])).toBe(false);
    expect(existsSync(sessions[0])).toBe(true);
    // Not in the trash either.
    expect(existsSync(join(env.XDG_DATA_HOME, "Trash", "files"))).toBe(false);
  }, 30_000);
});

describe("the mouse in a real terminal", () => {
  it("a click selects a row, a double-click resumes it; the wheel scrolls the reader", async () => {
    const { store, dir, sessions, env } = project(["mouse one", "mouse two", "mouse three"]);
    const pi = fakePi();
    const app = start(["--session-dir", store, "--pi-command", `${process.execPath} ${pi.script}`], {
      cwd: dir,
      env: { ...env, FAKE_PI_OUT: pi.out },
      cols: 100,
      rows: 30,
    });
    await app.waitFor((s) => /❯ .*mouse three/.test(s) && s.includes("mouse one"));
    const rowOf = (title: string) => app.lines().findIndex((l) => l.includes(title));
    // A click on "mouse one" (SGR: 1-based column and row).
    const y = rowOf("mouse one") + 1;
    await app.press(`\x1b[<0;10;${y}M`, `\x1b[<0;10;${y}m`);
    await app.waitFor((s) => selected(s).includes("mouse one"));
    // No key was typed by the report: no search opened, nothing else changed.
    expect(app.screen()).toContain("q quit");

    // The wheel in the reader.
    await app.press("v");
    await app.waitFor((s) => s.includes("Reader") && s.includes("answer three"));
    // The sibling branch with its tool output in full: longer than the screen.
    await app.press("]", "j", "j", "j", "z", "z");
    await app.waitFor("listing line 12");
    await app.press("g");
    await app.waitFor((s) => s.split("\n")[2]?.includes("You"));
    // Two notches down: six lines, the first message's lines scroll away.
    await app.press("\x1b[<65;10;10M", "\x1b[<65;10;10M");
    const pane = (s: string) => s.split("\n").slice(2).join("\n");
    await app.waitFor((s) => !pane(s).includes("mouse one") && pane(s).split("\n")[1]?.includes("question two"));
    await app.press("\x1b[<64;10;10M", "\x1b[<64;10;10M");
    await app.waitFor((s) => s.split("\n")[3]?.includes("mouse one"));
    await app.press("q");
    await app.waitFor((s) => !s.includes("Reader"));

    await app.press(`\x1b[<0;10;${y}M`, `\x1b[<0;10;${y}m`, `\x1b[<0;10;${y}M`, `\x1b[<0;10;${y}m`);
    expect((await app.exited).exitCode).toBe(7);
    expect(JSON.parse(readFileSync(pi.out, "utf8")).argv).toEqual(["--session", sessions[0]]);
    expect(app.raw()).toContain("\x1b[?1006l\x1b[?1000l");
  }, 60_000);

  it('"mouse": false in the config leaves the mouse to the terminal', async () => {
    const { store, dir, env } = project(["no mouse"]);
    const config = join(dir, "..", "config.json");
    writeFileSync(config, JSON.stringify({ mouse: false }));
    const app = start(["--session-dir", store, "--config", config], { cwd: dir, env });
    await app.waitFor((s) => /❯ .*no mouse/.test(s));
    await app.press("q");
    await app.exited;
    expect(app.raw()).not.toContain("\x1b[?1000h");
  }, 30_000);
});
