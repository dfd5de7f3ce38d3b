import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { KEY, ROOT, startApp, type RunningApp } from "./pty.js";

/*
 * pi's keys in a real terminal (issue 33 parts 1 and 2): the tree's Ctrl filters, the
 * picker's one Esc, and the user's pi keybindings.json moving a key (and a bad one that
 * is one line of warning). Each run gets its own pi agent folder, so a keybindings.json of
 * the machine's user never leaks in.
 */

const FIXTURE = join(ROOT, "fixtures", "pi-generated", "agent", "sessions");
/** A session of the fixture store with labels ("good", "temp") set at 2026-11-21T06:04:01Z. */
const LABELLED = "01a1fcb4-5de5-7643-a74f-8b79df0801e6";
const apps: RunningApp[] = [];
const dirs: string[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function setup(keybindings?: string) {
  const tmp = mkdtempSync(join(tmpdir(), "pi-sessions-pikeys-"));
  dirs.push(tmp);
  const store = join(tmp, "sessions");
  cpSync(FIXTURE, store, { recursive: true });
  const agent = join(tmp, "agent");
  mkdirSync(agent);
  if (keybindings !== undefined) writeFileSync(join(agent, "keybindings.json"), keybindings);
  const env = {
    PI_CODING_AGENT_DIR: agent,
    TZ: "UTC",
    XDG_DATA_HOME: join(tmp, "data"),
    XDG_STATE_HOME: join(tmp, "state"),
  };
  const start = (...extra: string[]) => {
    const app = startApp(["--session-dir", store, "--all", ...extra], { cwd: tmp, env });
    apps.push(app);
    return app;
  };
  return { start };
}

const settled = (s: string) => s.includes("❯") && s.includes("sort:") && !s.includes("scanning");
const treeHeader = (s: string) => s.split("\n")[0] ?? "";

async function openTree(app: RunningApp) {
  await app.waitFor(settled);
  await app.press("/");
  await app.type(LABELLED.slice(-12));
  await app.waitFor((s) => /\b1\/\d+/.test(s.split("\n")[0]));
  await app.press(KEY.enter);
  await app.press("t");
  await app.waitFor((s) => s.includes("← active") && treeHeader(s).includes("filter: default"));
}

describe("pi's keys in a real terminal", () => {
  it("the tree: Ctrl+U/T/L/A/D set pi's filters, Ctrl+O and Shift+Ctrl+O cycle, Shift+T shows label times", async () => {
    const app = setup().start();
    await openTree(app);
    const filter = async (key: string, name: string) => {
      await app.press(key);
      await app.waitFor((s) => treeHeader(s).includes(`filter: ${name}`));
    };
    await filter(KEY.ctrl("u"), "user-only");
    await filter(KEY.ctrl("u"), "default"); // each is a toggle, as in pi
    await filter(KEY.ctrl("t"), "no-tools");
    await filter(KEY.ctrl("l"), "labelled-only");
    const labelled = app.screen();
    expect(labelled).toContain("[good]");
    expect(labelled).not.toContain("[good] 11/21");
    await app.press("T");
    await app.waitFor((s) => treeHeader(s).includes("label times") && s.includes("[good] 11/21 06:04"));
    await filter(KEY.ctrl("a"), "all");
    await filter(KEY.ctrl("d"), "default");
    await filter(KEY.ctrl("o"), "no-tools");
    // Shift+Ctrl+O as a terminal with the kitty protocol (or xterm's modifyOtherKeys) sends it.
    await filter("\x1b[111;6u", "default");
    await filter("\x1b[27;6;79~", "all");
    // Nothing pages on Ctrl+D and nothing is deleted from the tree: Esc leaves it.
    await app.press(KEY.escape);
    await app.waitFor((s) => s.includes("Sessions ·") && !s.includes("← active"));
  });

  it("the picker: one Esc cancels the pick with 130, whatever is typed", async () => {
    const app = setup().start("--print");
    await app.waitFor("resume naïve");
    await app.type("naive");
    await app.waitFor((s) => s.includes("naive"));
    await app.press(KEY.escape);
    expect((await app.exited).exitCode).toBe(130);
  });

  it("the picker: Ctrl+D deletes as in pi's /resume (Enter confirms) and the pick goes on", async () => {
    const app = setup().start("--print");
    await app.waitFor(settled);
    await app.type("alpha fix");
    await app.waitFor((s) => s.includes("❯ alpha fix"));
    await app.press(KEY.ctrl("d"));
    await app.waitFor('Delete session "alpha fix');
    await app.press(KEY.enter);
    await app.waitFor((s) => s.includes("Moved 1 session to the trash") && !s.includes("❯ alpha fix"));
    await app.press(KEY.escape);
    expect((await app.exited).exitCode).toBe(130);
  });

  it("a pi keybindings.json that moves app.session.delete moves it here; the help names pi's id", async () => {
    const app = setup(
      JSON.stringify({ "app.session.delete": "ctrl+e", "app.tree.filter.userOnly": ["ctrl+g"] }),
    ).start();
    await app.waitFor(settled);
    await app.press(KEY.ctrl("d"));
    await new Promise((r) => setTimeout(r, 300));
    expect(app.screen()).not.toContain("Delete session");
    await app.press(KEY.ctrl("e"));
    await app.waitFor("Delete session");
    await app.press(KEY.escape);
    await app.waitFor("not deleted");
    await app.press("?");
    await app.waitFor("pi's keys (and your pi keybindings.json) apply");
    await app.press("/");
    await app.type("app.session.delete");
    await app.waitFor((s) => /Ctrl\+E\/d\/Del\s+session\.delete/.test(s) && s.includes("Ctrl+E is pi's"));
    // Esc clears the filter, then (a separate key, not ESC ESC in one read) closes the help.
    await app.press(KEY.escape);
    await app.waitFor("Esc closes");
    await app.press(KEY.escape);
    await app.waitFor((s) => s.includes("Sessions ·") && !s.includes("your pi keybindings.json"));
    await app.press("/");
    await app.type(LABELLED.slice(-12));
    await app.waitFor((s) => /\b1\/\d+/.test(s.split("\n")[0]));
    await app.press(KEY.enter);
    await app.press("t");
    await app.waitFor((s) => s.includes("← active"));
    await app.press(KEY.ctrl("g"));
    await app.waitFor((s) => treeHeader(s).includes("filter: user-only"));
  });

  it("a bad pi keybindings.json is one line of warning, and pi's default keys apply", async () => {
    const app = setup('{ "app.session.delete": \x1b[31m').start();
    const screen = await app.waitFor((s) => settled(s) && s.includes("pi keybindings"));
    const warning = screen.split("\n").filter((l) => l.includes("pi keybindings"));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toContain("is not JSON");
    await app.press(KEY.ctrl("d"));
    await app.waitFor("Delete session");
  });
});
