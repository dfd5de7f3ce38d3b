import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { KEY, ROOT, startApp, type RunningApp } from "./pty.js";

const STORE = join(ROOT, "fixtures", "pi-generated", "agent", "sessions");
const apps: RunningApp[] = [];
const dirs: string[] = [];
afterEach(() => {
  apps.splice(0).forEach((a) => a.kill());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), "pi-sessions-cfg-"));
  dirs.push(d);
  return d;
}

describe("configuration and the pi extension's picker flags (pty)", () => {
  it("a rebound key works and the old one no longer does", async () => {
    const dir = tmp();
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify({ keys: { "app.quit": ["x"] }, scope: "all", sort: "name" }));
    // The browser, not the picker: there keys type into the search, and Esc cancels.
    const app = startApp(["--session-dir", STORE, "--config", config]);
    apps.push(app);
    await app.waitFor("resume naïve");
    await app.press("q");
    await new Promise((r) => setTimeout(r, 300));
    expect(app.bufferType()).toBe("alternate");
    await app.press("x");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("a broken config gives one warning line and the defaults", async () => {
    const dir = tmp();
    const config = join(dir, "config.json");
    writeFileSync(config, "{ broken");
    const app = startApp(["--session-dir", STORE, "--config", config, "--all"]);
    apps.push(app);
    await app.waitFor("resume naïve");
    expect(app.raw()).toMatch(/pi-sessions: config .*not valid JSON.*using defaults/);
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("names and keys from the config are never echoed raw: no window title, no C1 or bidi control", async () => {
    const dir = tmp();
    const config = join(dir, "config.json");
    const evil = "\x1b]0;PWNED\x07\u009d0;PWNED\u0007\u009b2J\u202e";
    writeFileSync(
      config,
      JSON.stringify({ [`x${evil}`]: 1, keys: { [`cmd${evil}`]: ["x"], "app.quit": [`k${evil}`] } }),
    );
    const app = startApp(["--session-dir", STORE, "--config", config, "--all"]);
    apps.push(app);
    await app.waitFor("resume naïve");
    // The key map's warnings are Ink's status line (a first screen drawn before Ink has none).
    await app.waitFor(() => /unknown command "cmd/.test(app.raw()));
    expect(app.raw()).toMatch(/unknown setting "x/);
    expect(app.raw()).toMatch(/unknown command "cmd/);
    expect(app.titles().filter((t) => t.includes("PWNED"))).toEqual([]);
    expect(app.raw()).not.toContain("PWNED");
    expect(app.raw()).not.toMatch(/[\x80-\x9f\u202e]/);
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("--result-file receives the choice (stdout stays pi's) and --current is marked", async () => {
    const dir = tmp();
    const result = join(dir, "choice.txt");
    const expected = JSON.parse(readFileSync(join(ROOT, "fixtures", "pi-generated", "expected.json"), "utf8")) as {
      sessions: { file: string; id: string; name: string | null }[];
    };
    const named = expected.sessions.find((s) => s.name === "resume naïve")!;
    const current = join(ROOT, "fixtures", "pi-generated", named.file);
    const app = startApp([
      "--session-dir",
      STORE,
      "--all",
      "--result-file",
      result,
      "--current",
      current,
      "--query",
      named.id,
    ]);
    apps.push(app);
    // The id matches one session only; wait until it is the only row.
    await app.waitFor((screen) => screen.includes("[open in pi]") && screen.includes(" 1/30 "));
    await app.press(KEY.enter);
    expect((await app.exited).exitCode).toBe(0);
    expect(readFileSync(result, "utf8")).toBe(`${current}\n`);
  });
});
