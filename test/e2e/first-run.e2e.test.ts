import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, DAMAGED_STORE, makeTmpDir, PI_STORE } from "../helpers/tmp-store.js";
import { listPosition, selectedLine } from "./driver.js";
import { KEY, startApp, type RunningApp } from "./pty.js";

/*
 * A newcomer's first minutes on the demo store, end to end in a real pseudo-terminal.
 */

const apps: RunningApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));
afterAll(cleanupTmp);

function start(...a: Parameters<typeof startApp>): RunningApp {
  const app = startApp(...a);
  apps.push(app);
  return app;
}

/** The selected row's title, without the marker and the columns after it. */
const selectedTitle = (screen: string) =>
  selectedLine(screen)
    .replace(/^.*❯\s*/, "")
    .split(/\s{2,}/)[0];

describe("a first run on the demo store", () => {
  it("Esc after a search stays on the session the cursor was on: /parser, Enter, j, Esc", async () => {
    const app = start(["--session-dir", copyStore(PI_STORE), "--all"]);
    await app.waitFor((s) => listPosition(s) === "1" && !s.includes("scanning"));
    await app.press("/");
    await app.type("parser");
    await app.waitFor(/parser\s+\d+ match/);
    await app.press(KEY.enter);
    await app.press("j");
    const searched = await app.waitFor((s) => listPosition(s) === "2");
    const title = selectedTitle(searched);
    expect(title).not.toBe("");
    await app.press(KEY.escape);
    const back = await app.waitFor((s) => !/\d+ match/.test(s));
    expect(selectedTitle(back)).toBe(title);
    expect(listPosition(back)).not.toBe("1");
  });

  it("a session whose folder is gone is asked about once, by pi: Enter starts pi where the browser was", async () => {
    const dir = makeTmpDir("pi-sessions-e2e-pi-");
    const script = join(dir, "fake-pi.mjs");
    const out = join(dir, "out.json");
    writeFileSync(
      script,
      `import { writeFileSync } from "node:fs";\n` +
        `writeFileSync(${JSON.stringify(out)}, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));\n`,
    );
    const here = realpathSync(makeTmpDir("pi-sessions-e2e-here-"));
    const app = start(
      ["--session-dir", copyStore(PI_STORE), "--all", "--pi-command", `${process.execPath} ${script}`],
      {
        cwd: here,
      },
    );
    const screen = await app.waitFor((s) => listPosition(s) === "1" && !s.includes("scanning"));
    expect(screen).toContain("dev/src/my-lib"); // the demo store's folders exist on no machine
    await app.press(KEY.enter);
    const { exitCode } = await app.exited;
    expect(existsSync(out), `pi did not start; the screen:\n${app.screen()}`).toBe(true);
    const ran = JSON.parse(readFileSync(out, "utf8")) as { argv: string[]; cwd: string };
    expect(ran.argv[0]).toBe("--session");
    expect(ran.cwd).toBe(here);
    expect(exitCode).toBe(0);
  });

  it('"N files skipped" can be looked at: the header names the key, ! lists each file and why, Esc goes back', async () => {
    const store = copyStore(DAMAGED_STORE);
    writeFileSync(join(store, "--tmp-damaged--", "evil\x1b[2J.jsonl"), "not json\n");
    const app = start(["--session-dir", store, "--all"]);
    const header = await app.waitFor((s) => /\d+ files skipped \(! shows\)/.test(s) && !s.includes("scanning"));
    const count = /(\d+) files skipped/.exec(header)![1];
    await app.press("!");
    const view = await app.waitFor(`Skipped files (${count})`);
    expect(view).toContain("empty.jsonl");
    expect(view).toContain("empty: empty file");
    expect(view).toContain("evil");
    expect(app.raw()).not.toContain("\x1b[2J.jsonl");
    await app.press(KEY.escape);
    await app.waitFor((s) => !s.includes("Skipped files") && s.includes("Sessions ·"));
  });
});
