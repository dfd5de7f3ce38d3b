import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { CLI, KEY, ROOT, startProgram, type RunningApp } from "./pty.js";

/*
 * Ctrl+Z (issue 20): the browser suspends to the shell with the terminal given back as it
 * was, and `fg` brings it back redrawn with keys working, as lazygit does. In a real
 * interactive shell (job control), not a test double.
 */
const apps: RunningApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));
const STORE = join(ROOT, "fixtures", "pi-generated", "agent", "sessions");

describe("Ctrl+Z", () => {
  it("suspends to the shell, and fg redraws the browser with keys working", async () => {
    const sh = startProgram("bash", ["--norc", "--noprofile", "-i"], { env: { PS1: "shell$ " } });
    apps.push(sh);
    await sh.waitFor("shell$");
    await sh.press(`"${process.execPath}" "${CLI}" --session-dir "${STORE}" --all\r`);
    await sh.waitFor((s) => s.includes("❯") && s.includes("sort: recent") && !s.includes("scanning"));
    await sh.press(KEY.ctrl("z"));
    const stopped = await sh.waitFor((s) => s.includes("Stopped") && s.includes("shell$"));
    expect(sh.bufferType()).toBe("normal");
    expect(stopped).not.toContain("❯");
    // A reflexive fg⏎ lands in the shell, not in the app.
    await sh.press("fg\r");
    await sh.waitFor((s) => s.includes("❯") && s.includes("sort: recent"));
    expect(sh.bufferType()).toBe("alternate");
    await sh.press("j");
    await sh.waitFor((s) => /❯/.test(s) && s.split("\n").findIndex((l) => l.includes("❯")) > 3);
    await sh.press("q");
    await sh.waitFor((s) => sh.bufferType() === "normal" && s.includes("shell$"));
    sh.press("exit\r");
  });
});
