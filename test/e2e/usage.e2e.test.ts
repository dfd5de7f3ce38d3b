import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, FIXTURES } from "../helpers/tmp-store.js";
import { KEY, startApp, type RunningApp } from "./pty.js";

/*
 * `U` end to end: the usage view over pi 1.5.2's own store (usage on assistant replies,
 * tool results, compactions, branch summaries and usage entries, two models), in a real
 * pseudo-terminal. TZ is fixed so the local days are known.
 */

const apps: RunningApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));
afterAll(cleanupTmp);

const PI15_STORE = join(FIXTURES, "pi-1.5.2", "agent", "sessions");

function start(env: Record<string, string> = {}): RunningApp {
  const app = startApp(["--all", "--session-dir", copyStore(PI15_STORE)], {
    cols: 100,
    rows: 24,
    env: { TZ: "UTC", ...env },
  });
  apps.push(app);
  return app;
}

describe("usage view (U)", () => {
  it("opens with totals and bars by day, switches to model and folder, and goes back", async () => {
    const app = start();
    await app.waitFor(/of 14/);
    await app.press("U");
    const day = await app.waitFor("Usage by day");
    expect(day).toContain("▸day");
    // pi's /session totals over every listed session (the conformance suite checks them per file)
    expect(day).toContain("Total $0.36 · 104k tokens · 9 of 14 sessions with usage");
    expect(day).toContain("input 3.2k · output 607 · cache read 100k · cache write 185");
    expect(day).toMatch(/2026-11-23 █+/);
    expect(day).toMatch(/2026-11-01 █+.*\$0\.26/);
    expect(day).toContain("■ claude-sonnet-4-5");
    await app.press("3");
    const model = await app.waitFor("Usage by model");
    expect(model).toMatch(/claude-sonnet-4-5 +█{20,}.*\$0\.36/);
    expect(model).toMatch(/gpt-6 +[▏▎▍▌▋▊▉█]+ +<\$0\.01/);
    await app.press(KEY.right);
    await app.waitFor("Usage by day");
    await app.press("2");
    const folder = await app.waitFor("Usage by folder");
    expect(folder).toMatch(/cwds\/proj-b █{40,} +\$0\.16 +2\.0k/);
    // by tokens, proj-c's 51k dwarfs proj-b's 2.0k
    await app.press("M");
    const tokens = await app.waitFor("bars: tokens");
    expect(tokens).toMatch(/cwds\/proj-b [▏▎▍▌▋▊▉█]{1,3} +\$0\.16/);
    await app.press("q");
    await app.waitFor((s) => !s.includes("Usage by") && s.includes("Sessions · all folders"));
  });

  it("names each model by its own glyph when colours are off (NO_COLOR)", async () => {
    const app = start({ NO_COLOR: "1" });
    await app.waitFor(/of 14/);
    await app.press("U", "3");
    // The frame may arrive in pieces under load: wait for the rows, not only the title.
    const s = await app.waitFor((f) => f.includes("Usage by model") && /gpt-6 .*<\$0\.01/.test(f));
    expect(s).toContain("█ claude-sonnet-4-5");
    expect(s).toContain("▓ gpt-6");
    expect(s).toMatch(/gpt-6 +▓*[▏▎▍▌▋▊▉▓]+ +<\$0\.01/);
  });
});
