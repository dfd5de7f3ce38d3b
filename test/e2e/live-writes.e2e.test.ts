// The browser while pi writes (issue 34): with a session appended to steadily, a session
// created meanwhile shows within a deadline (the watcher waited for quiet, which steady
// writes never give); and an open search is run again over a session pi appends the
// word to, which then shows.
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../helpers/tmp-store.js";
import { appStarter, KEY } from "./pty.js";

const start = appStarter();
const writers: ChildProcess[] = [];
afterEach(() => writers.splice(0).forEach((w) => w.kill()));
afterAll(cleanupTmp);

let seq = 0;
const line = (text: string, role = "user") =>
  JSON.stringify({
    type: "message",
    id: `m${++seq}`.padEnd(8, "0"),
    parentId: null,
    timestamp: new Date(Date.parse("2026-05-02T10:00:00Z") + seq * 1000).toISOString(),
    message:
      role === "user"
        ? { role: "user", content: text, timestamp: seq }
        : { role: "assistant", content: [{ type: "text", text }], stopReason: "stop", model: "m" },
  }) + "\n";

function session(folder: string, n: number, first: string): string {
  const id = `0000000${n}-0000-4000-8000-000000000000`.slice(-36);
  const path = join(folder, `2026-05-02T09-${String(10 + n).padStart(2, "0")}-00-000Z_${id}.jsonl`);
  const header = { type: "session", version: 3, id, timestamp: "2026-05-02T09:00:00.000Z", cwd: "/tmp/proj" };
  writeFileSync(path, JSON.stringify(header) + "\n" + line(first));
  return path;
}

function store() {
  const dir = join(makeTmpDir("pi-sessions-e2e-live-"), "sessions");
  const folder = join(dir, "--tmp-proj--");
  mkdirSync(folder, { recursive: true });
  const busy = session(folder, 1, "the busy session");
  for (let n = 2; n < 6; n++) session(folder, n, `quiet session ${n}`);
  return { dir, folder, busy };
}

/**
 * pi appending to `path` every `ms`, in a process of its own (a timer in the test's process,
 * busy reading the screen, would leave gaps a quiet wait fits in), until the test ends.
 */
function steadyWriter(path: string, ms: number) {
  const script = `const fs = require("node:fs"); let n = 0; setInterval(() => fs.appendFileSync(process.argv[1], JSON.stringify({ type: "message", id: "w" + ++n, parentId: null, timestamp: new Date().toISOString(), message: { role: "assistant", content: [{ type: "text", text: "still working" }], stopReason: "stop", model: "m" } }) + "\\n"), ${ms});`;
  writers.push(spawn(process.execPath, ["-e", script, path], { stdio: "ignore" }));
}

describe("the browser while pi writes (pty)", () => {
  it("a session created while another is appended to two hundred times a second shows within a deadline", async () => {
    const s = store();
    const app = start(["--session-dir", s.dir, "--all"]);
    await app.waitFor("quiet session 5");
    steadyWriter(s.busy, 5);
    await new Promise((r) => setTimeout(r, 500));
    session(s.folder, 7, "a brand new session");
    // Within a second as the watcher has it; more here for a loaded machine. Writing never stops meanwhile.
    await app.waitFor("a brand new session", 3000);
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("an open search shows a session once pi appends the word to it", async () => {
    const s = store();
    const app = start(["--session-dir", s.dir, "--all"]);
    await app.waitFor("quiet session 5");
    await app.press("/");
    await app.type("quokka");
    await app.waitFor((screen) => /0 match/.test(screen) && !/full text…|full text \d/.test(screen), 10_000);
    appendFileSync(s.busy, line("we found a quokka here", "assistant"));
    const screen = await app.waitFor("the busy session", 5000);
    expect(screen).toMatch(/quokka/);
    await app.press(KEY.escape, "q");
    expect((await app.exited).exitCode).toBe(0);
  });
});
