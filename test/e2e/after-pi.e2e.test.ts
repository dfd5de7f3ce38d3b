import { chmodSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../helpers/tmp-store.js";
import { addProjectSession } from "../helpers/project-session.js";
import { pressCommand, selectedLine } from "./driver.js";
import { appStarter, shQuote, startShell, type RunningApp } from "./pty.js";

/*
 * "afterPi": "return" end to end: Enter resumes with a fake `pi` found on PATH, which
 * appends to the session as pi does and exits 3; the browser comes back on the same sort
 * with the cursor on that session, its row read again, pi's status in the status line,
 * and the terminal in full-screen raw mode again; q then quits with 0.
 */

const start = appStarter();
const shells: RunningApp[] = [];
afterEach(() => shells.splice(0).forEach((a) => a.kill()));
afterAll(cleanupTmp);

/** A project with three sessions created a second apart (alpha first); the store and the project folder. */
function project(): { store: string; cwd: string; paths: Record<string, string> } {
  const store = join(makeTmpDir(), "sessions");
  const cwd = realpathSync(makeTmpDir("pi-sessions-e2e-project-"));
  const paths: Record<string, string> = {};
  ["alpha", "beta", "gamma"].forEach((word, i) => {
    paths[word] = addProjectSession(store, cwd, `${word} notes`, { n: i + 1, at: `2026-11-21T07:00:0${i + 1}.000Z` });
  });
  return { store, cwd, paths };
}

/** A `pi` for PATH: notes its arguments, says something on the terminal, names the session (as pi appends), exits 3. */
function fakePiOnPath(): { bin: string; out: string } {
  const bin = makeTmpDir("pi-sessions-e2e-bin-");
  const out = join(bin, "argv.txt");
  const name = JSON.stringify({
    type: "session_info",
    id: "n1",
    parentId: "a1",
    timestamp: "2026-11-21T08:00:00.000Z",
    name: "beta named by pi",
  });
  writeFileSync(
    join(bin, "pi"),
    `#!/bin/sh\nprintf '%s\\n' "$*" > "$FAKE_PI_OUT"\nprintf 'FAKE PI RAN\\n'\n` +
      `printf '%s\\n' '${name}' >> "$2"\nexit 3\n`,
  );
  chmodSync(join(bin, "pi"), 0o755);
  return { bin, out };
}

const ENTER_FULL_SCREEN = "\x1b[?1049h";
const PASTE_ON = "\x1b[?2004h";
const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
const MOUSE_OFF = "\x1b[?1006l\x1b[?1000l";
const count = (text: string, part: string) => text.split(part).length - 1;
/** The three rows listed and the scan done (a row still being read changes under the cursor). */
const listed = (s: string) => s.includes("alpha notes") && s.includes("gamma notes") && !s.includes("scanning");

describe('"afterPi": "return" (pty)', () => {
  it("comes back from pi on the same sort, the cursor on the session resumed and its row read again", async () => {
    const { store, cwd, paths } = project();
    const pi = fakePiOnPath();
    const config = join(makeTmpDir(), "config.json");
    writeFileSync(config, JSON.stringify({ afterPi: "return" }));
    const app = start(["--session-dir", store, "--config", config], {
      cwd,
      env: { PATH: `${pi.bin}:${process.env.PATH}`, PI_SESSIONS_PI: undefined, FAKE_PI_OUT: pi.out },
    });
    await app.waitFor(listed);
    // By creation, newest first: gamma, beta, alpha. A fresh start would select gamma.
    await pressCommand(app, "sort.cycle");
    await app.waitFor((s) => /created/.test(s));
    await pressCommand(app, "list.down");
    await app.waitFor((s) => selectedLine(s).includes("beta notes"));
    await pressCommand(app, "session.resume");

    // pi ran on the main screen, then the browser came back to the alternate one.
    await app.waitFor((s) => /❯ .*beta named by pi/.test(s));
    expect(readFileSync(pi.out, "utf8")).toBe(`--session ${paths.beta}\n`);
    expect(app.bufferType()).toBe("alternate");
    const screen = await app.waitFor("pi exited with status 3");
    expect(screen).toMatch(/created/);
    expect(screen).not.toContain("FAKE PI RAN");
    // Before pi: the terminal given back (no mouse, no paste, main screen). After it: nothing
    // written until full screen, bracketed paste and the mouse are turned on again.
    const [launch, back] = app.raw().split("FAKE PI RAN");
    expect(launch.slice(launch.lastIndexOf(MOUSE_OFF))).toMatch(
      /^\x1b\[\?1006l\x1b\[\?1000l\x1b\[\?2004l.*\x1b\[\?1049l/,
    );
    expect(back.slice(0, back.indexOf(ENTER_FULL_SCREEN))).toBe("\r\n");
    for (const on of [ENTER_FULL_SCREEN, PASTE_ON, MOUSE_ON]) expect(back).toContain(on);

    // Keys act at once (raw mode): one down is alpha's row.
    await pressCommand(app, "list.down");
    await app.waitFor((s) => selectedLine(s).includes("alpha notes"));
    await pressCommand(app, "app.quit");
    expect((await app.exited).exitCode).toBe(0);
    expect(app.bufferType()).toBe("normal");
  });

  it("--after-pi return comes back to the same search, the session resumed selected among its hits", async () => {
    const { store, cwd } = project();
    const pi = fakePiOnPath();
    const app = start(["--session-dir", store, "--after-pi", "return"], {
      cwd,
      env: { PATH: `${pi.bin}:${process.env.PATH}`, PI_SESSIONS_PI: undefined, FAKE_PI_OUT: pi.out },
    });
    await app.waitFor(listed);
    await pressCommand(app, "search.start");
    await app.type("notes");
    await pressCommand(app, "search.submit");
    await pressCommand(app, "list.down");
    await app.waitFor((s) => selectedLine(s).includes("beta notes"));
    await pressCommand(app, "session.resume");
    const back = await app.waitFor((s) => /❯ .*beta named by pi/.test(s) && s.includes("pi exited with status 3"));
    expect(back).toMatch(/\/ ?notes/);
    expect(back).toContain("alpha notes");
    await pressCommand(app, "app.quit");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("--print is a picker whatever the setting: it prints the choice and ends", async () => {
    const { store, cwd, paths } = project();
    const config = join(makeTmpDir(), "config.json");
    writeFileSync(config, JSON.stringify({ afterPi: "return" }));
    const out = join(makeTmpDir(), "picked.txt");
    const app = startShell(
      `"$NODE" "$PI_SESSIONS_CLI" --session-dir ${shQuote(store)} --config ${shQuote(config)} --print > ${shQuote(out)}`,
      { cwd },
    );
    shells.push(app);
    await app.waitFor((s) => /❯ .*gamma notes/.test(s));
    await pressCommand(app, "session.resume");
    expect((await app.exited).exitCode).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(paths.gamma + "\n");
  });

  it("--after-pi exit overrides the config for one run: the program ends with pi's status", async () => {
    const { store, cwd } = project();
    const pi = fakePiOnPath();
    const config = join(makeTmpDir(), "config.json");
    writeFileSync(config, JSON.stringify({ afterPi: "return" }));
    const app = start(["--session-dir", store, "--config", config, "--after-pi", "exit"], {
      cwd,
      env: { PATH: `${pi.bin}:${process.env.PATH}`, PI_SESSIONS_PI: undefined, FAKE_PI_OUT: pi.out },
    });
    await app.waitFor((s) => /❯ .*gamma notes/.test(s));
    await pressCommand(app, "session.resume");
    expect((await app.exited).exitCode).toBe(3);
    expect(count(app.raw(), ENTER_FULL_SCREEN)).toBe(1);
  });
});
