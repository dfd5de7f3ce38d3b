import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT, startApp, type RunningApp } from "./pty.js";

const STORE = join(ROOT, "fixtures", "pi-generated", "agent", "sessions");
const apps: RunningApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));

/** Opens the browser, waits for rows, quits; returns what the launcher said about its cache. */
async function browseOnce(cacheDir: string): Promise<string> {
  const app = startApp(["--session-dir", STORE, "--all"], { env: { PI_SESSIONS_CACHE_DIR: cacheDir, PI_SESSIONS_DEBUG_CODE_CACHE: "1" } });
  apps.push(app);
  await app.waitFor("resume naïve");
  await app.press("q");
  expect((await app.exited).exitCode).toBe(0);
  return /code cache (\w+)/.exec(app.raw())?.[1] ?? "?";
}

describe("the launcher's code cache (pty)", () => {
  it("the first browse writes it, the next one uses it, a damaged one is replaced", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-sessions-e2e-cc-"));
    expect(await browseOnce(dir)).toBe("none");
    const [file] = readdirSync(dir);
    expect(file).toMatch(/^code-[0-9a-f]{8}\.v8$/);
    expect(await browseOnce(dir)).toBe("accepted");

    const bytes = readFileSync(join(dir, file));
    bytes[bytes.length >> 1] ^= 0xff;
    writeFileSync(join(dir, file), bytes);
    expect(await browseOnce(dir)).toBe("none"); // ignored, and the browser still works
    expect(await browseOnce(dir)).toBe("accepted");
  });

  it("PI_SESSIONS_CODE_CACHE=0 turns it off", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-sessions-e2e-cc-"));
    const app = startApp(["--session-dir", STORE, "--all"], { env: { PI_SESSIONS_CACHE_DIR: dir, PI_SESSIONS_CODE_CACHE: "0", PI_SESSIONS_DEBUG_CODE_CACHE: "1" } });
    apps.push(app);
    await app.waitFor("resume naïve");
    await app.press("q");
    await app.exited;
    expect(app.raw()).toContain("code cache off");
    expect(existsSync(dir) && readdirSync(dir)).toEqual([]);
  });
});
