// A pattern that makes a backtracking engine run for minutes (issue 34): typed into the
// browser's search over sessions whose name, first message and conversation hold forty
// `a`s and a `b`, the list, the preview's marks and the full-text search all answer, and
// the keys stay live: Esc closes the search and q quits within a deadline.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../helpers/tmp-store.js";
import { appStarter, KEY, type RunningApp } from "./pty.js";

const start = appStarter();
afterAll(cleanupTmp);

const EVIL = "a".repeat(40) + "b";

function evilStore(sessions: number): string {
  const store = join(makeTmpDir("pi-sessions-e2e-regex-"), "sessions");
  const folder = join(store, "--tmp-proj--");
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < sessions; i++) {
    const id = `0000000${i}-0000-4000-8000-000000000000`.slice(-36);
    const at = (n: number) => new Date(Date.parse("2026-05-02T09:15:00Z") + i * 60_000 + n * 1000).toISOString();
    const lines = [
      { type: "session", version: 3, id, timestamp: at(0), cwd: "/tmp/proj" },
      {
        type: "message",
        id: "u1000000",
        parentId: null,
        timestamp: at(1),
        message: { role: "user", content: `${EVIL} ${i}`, timestamp: 1 },
      },
      ...Array.from({ length: 20 }, (_, k) => ({
        type: "message",
        id: `a${k}`.padEnd(8, "0"),
        parentId: k === 0 ? "u1000000" : `a${k - 1}`.padEnd(8, "0"),
        timestamp: at(2 + k),
        message: {
          role: "assistant",
          content: [{ type: "text", text: `${EVIL}\n`.repeat(50) }],
          stopReason: "stop",
          model: "m",
        },
      })),
      { type: "session_info", id: "s1000000", parentId: "a1900000", timestamp: at(30), name: EVIL },
    ];
    writeFileSync(
      join(folder, `2026-05-02T09-${String(15 + i).padStart(2, "0")}-00-000Z_${id}.jsonl`),
      lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
    );
  }
  return store;
}

/**
 * Esc closes the search and q quits, each within a deadline (generous for a loaded machine:
 * a backtracking engine takes minutes). q waits for the search to close, as a person does:
 * an Esc and a q read together are Alt+q, on a busy machine as in any terminal.
 */
async function escapeThenQuit(app: RunningApp) {
  const t0 = Date.now();
  await app.press(KEY.escape);
  await app.waitFor((s) => !s.includes("/re:"), 15_000);
  await app.press("q");
  const exited = await Promise.race([app.exited, new Promise((r) => setTimeout(() => r("hung"), 15_000))]);
  expect(exited).toMatchObject({ exitCode: 0 });
  expect(Date.now() - t0).toBeLessThan(20_000);
}

describe("a pathological re: pattern in the browser", () => {
  it("answers, and Esc then q quit within a deadline", async () => {
    const app = start(["--session-dir", evilStore(20), "--all"]);
    await app.waitFor(EVIL);
    await app.press("/");
    await app.type("re:(a+)+$");
    // Nothing ends in a run of a's: the list says so once the full-text search has read every file.
    await app.waitFor((s) => /0 matches/.test(s) && !/searching/i.test(s), 20_000);
    await escapeThenQuit(app);
  }, 60_000);

  it("Esc and q act at once even while such a query is being typed and searched", async () => {
    const app = start(["--session-dir", evilStore(20), "--all"]);
    await app.waitFor(EVIL);
    await app.press("/");
    await app.type("re:(a+)+b$");
    await app.waitFor(/\d+ match/, 20_000);
    await app.type("(\\w+\\s?)+$");
    await escapeThenQuit(app);
  }, 60_000);
});
