import { chmodSync, existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { addProjectSession } from "../helpers/project-session.js";
import { cleanupTmp, makeTmpDir } from "../helpers/tmp-store.js";
import { ROOT, startProgram, type RunningApp } from "./pty.js";

/*
 * `npm start` as a user types it: npm puts the checkout's node_modules/.bin (where the
 * oracle devDependency puts a `pi` 0.73.1) first on PATH. Enter must still start the pi
 * the user's shell would start: here a fake `pi` early on the user's own PATH.
 */

const apps: RunningApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));
afterAll(cleanupTmp);

/** The PATH of a user's shell: this one without what npm (running these tests) put in front. */
function shellPath(): string {
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter((d) => d && !d.includes("node_modules"))
    .join(delimiter);
}

/** The environment of that shell: no npm_* variables, a home of its own (no store, no config). */
function shellEnv(bin: string, out: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const k of Object.keys(process.env)) if (/^npm_|^init_cwd$/i.test(k)) env[k] = undefined;
  const home = makeTmpDir("pi-sessions-e2e-home-");
  return {
    ...env,
    PATH: `${bin}${delimiter}${shellPath()}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    PI_CODING_AGENT_DIR: undefined,
    PI_CODING_AGENT_SESSION_DIR: undefined,
    PI_SESSIONS_PI: undefined,
    FAKE_PI_OUT: out,
  };
}

describe("npm start (pty)", () => {
  it("Enter resumes in the user's pi, not the pi in node_modules/.bin", async () => {
    expect(existsSync(join(ROOT, "node_modules", ".bin", "pi")), "the oracle devDependency's pi").toBe(true);
    const store = join(makeTmpDir(), "sessions");
    const cwd = realpathSync(makeTmpDir("pi-sessions-e2e-project-"));
    const path = addProjectSession(store, cwd, "resume me in my own pi", { n: 1 });
    const bin = makeTmpDir("pi-sessions-e2e-bin-");
    const out = join(bin, "ran.txt");
    writeFileSync(join(bin, "pi"), `#!/bin/sh\nprintf 'user pi %s\\n' "$*" > "$FAKE_PI_OUT"\n`);
    chmodSync(join(bin, "pi"), 0o755);

    const app = startProgram("/bin/sh", ["-c", `npm start -- --session-dir '${store}' --all`], {
      cwd: ROOT,
      env: shellEnv(bin, out),
    });
    apps.push(app);
    await app.waitFor("resume me in my own pi", 20_000);
    await app.press("\r");
    const { exitCode } = await app.exited;
    expect(existsSync(out), `the user's pi did not run; the screen:\n${app.screen()}`).toBe(true);
    expect(readFileSync(out, "utf8")).toBe(`user pi --session ${path}\n`);
    expect(exitCode).toBe(0);
  }, 40_000);
});
