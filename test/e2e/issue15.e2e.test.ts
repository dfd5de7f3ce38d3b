import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "../helpers/tmp-store.js";
import { appStarter, KEY, type RunningApp } from "./pty.js";

/*
 * Issue 15 in a real terminal: a missing pi is said in place, and resizing across the
 * side-by-side / stacked threshold leaves the same screen as a fresh launch at that size.
 */

// Every program a test starts is killed after it.
const start = appStarter();
afterAll(cleanupTmp);

describe("a missing pi", () => {
  it("is said in the status line; the browser stays open and keeps working", async () => {
    const store = copyStore(PI_STORE);
    const app = start(["--session-dir", store, "--all", "--pi-command", "/nonexistent/pi"]);
    await app.waitFor("❯");
    await app.press(KEY.enter);
    await app.waitFor("cannot resume: /nonexistent/pi is not an executable file");
    // Still browsing: a key moves the selection.
    const before = app.lines().find((l) => l.includes("❯"));
    await app.press("j");
    await app.waitFor(() => app.lines().find((l) => l.includes("❯")) !== before);
    expect(app.bufferType()).toBe("alternate");
    // c copies the resume command with the pi command given, not a bare `pi`.
    await app.press("c");
    await app.waitFor("copied the resume command");
    const copied = [...app.raw().matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)].map((m) =>
      Buffer.from(m[1], "base64").toString("utf8"),
    );
    expect(copied.at(-1)).toMatch(/^cd .+ && \/nonexistent\/pi --session .+\.jsonl'?$/);
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });
});

describe("config mistakes", () => {
  it("show in the status line at start", async () => {
    const config = join(makeTmpDir(), "config.json");
    writeFileSync(config, JSON.stringify({ colour: "red", keys: { "list.dwn": ["n"] } }));
    const app = start(["--session-dir", PI_STORE, "--all", "--config", config]);
    const screen = await app.waitFor("config: unknown setting");
    expect(screen).toContain('config: unknown setting "colour" ignored (+1 more: pi-sessions config lists them)');
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
  });
});

/** A store of sessions with long, wide-character (CJK) text and a branch. */
function wideStore(): string {
  const store = makeTmpDir();
  for (let n = 1; n <= 12; n++) {
    const id = `01a1fcb4-0000-7000-8000-${String(n).padStart(12, "0")}`;
    const dir = join(store, `--srv-project-${n % 3}--`);
    mkdirSync(dir, { recursive: true });
    const t = (s: number) => `2026-11-21T07:${String(n).padStart(2, "0")}:${String(s).padStart(2, "0")}.000Z`;
    const words = "研究 分支 parser 会话 resume refactor naïve build ".repeat(6);
    const lines = [
      { type: "session", version: 3, id, timestamp: t(0), cwd: `/srv/project-${n % 3}/研究` },
      {
        type: "message",
        id: "u1",
        parentId: null,
        timestamp: t(1),
        message: { role: "user", content: `question ${n}: ${words}`, timestamp: 1 },
      },
      {
        type: "message",
        id: "a1",
        parentId: "u1",
        timestamp: t(2),
        message: {
          role: "assistant",
          content: [{ type: "text", text: `answer ${n}\n${words}\n${words}` }],
          stopReason: "stop",
          model: "m",
        },
      },
      {
        type: "message",
        id: "u2",
        parentId: "a1",
        timestamp: t(3),
        message: { role: "user", content: `branch one ${words}`, timestamp: 2 },
      },
      {
        type: "message",
        id: "u3",
        parentId: "a1",
        timestamp: t(4),
        message: { role: "user", content: `branch two ${words}`, timestamp: 3 },
      },
      {
        type: "message",
        id: "a3",
        parentId: "u3",
        timestamp: t(5),
        message: {
          role: "assistant",
          content: [{ type: "text", text: `last ${words}` }],
          stopReason: "stop",
          model: "m",
        },
      },
    ];
    writeFileSync(
      join(dir, `2026-11-21T07-00-${String(n).padStart(2, "0")}-000Z_${id}.jsonl`),
      lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
    );
  }
  return store;
}

describe("resizing across the side-by-side / stacked threshold", () => {
  /** The screen once it stopped changing (previews load after the cursor rests). */
  async function settled(app: RunningApp): Promise<string> {
    let last = app.screen();
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const now = app.screen();
      if (now === last && !now.includes("loading")) return now;
      last = now;
    }
    return last;
  }

  /** The screen once the program has drawn at the new size (the old frame wrapped stays still meanwhile under load). */
  async function resized(app: RunningApp, cols: number, rows: number): Promise<string> {
    const before = app.raw().length;
    await app.resize(cols, rows);
    await app.waitFor(() => app.raw().length > before, 20_000);
    return settled(app);
  }

  /** The screen of a fresh launch at this size, after the same keys. */
  async function fresh(args: string[], cols: number, rows: number, keys: string[], ready: string): Promise<string> {
    const app = start(args, { cols, rows });
    await app.waitFor(ready);
    if (keys.length) await app.press(...keys);
    const s = await settled(app);
    app.kill();
    return s;
  }

  it.each([
    [120, 36, 90, 30],
    [90, 30, 120, 36],
  ])(
    "the fixture store (emoji, CJK) at %i×%i resized to %i×%i looks as a fresh launch there",
    async (c0, r0, c1, r1) => {
      const args = ["--session-dir", PI_STORE, "--all"];
      const app = start(args, { cols: c0, rows: r0 });
      await app.waitFor("resume naïve");
      await settled(app);
      const got = await resized(app, c1, r1);
      expect(got).toBe(await fresh(args, c1, r1, [], "resume naïve"));
    },
  );

  it("the tree at 120 columns resized to 80 looks as a fresh launch there", async () => {
    const args = ["--session-dir", wideStore(), "--all"];
    const app = start(args, { cols: 120, rows: 36 });
    await app.waitFor("question 12");
    await app.press("t");
    await app.waitFor("tree ·");
    await settled(app);
    const got = await resized(app, 80, 36);
    expect(got).toBe(await fresh(args, 80, 36, ["t"], "question 12"));
  });
});

describe("npm start on the bundled demo store", () => {
  /** One hash over every file of a folder (names and bytes). */
  function folderHash(dir: string): string {
    const h = createHash("sha256");
    const files = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name))
      .sort();
    for (const f of files) h.update(f).update(readFileSync(f));
    return h.digest("hex");
  }

  it("opens a copy, says so in the header, and a rename leaves the bundled files as they were", async () => {
    const before = folderHash(PI_STORE);
    const home = makeTmpDir();
    const app = start(["--fallback-store", PI_STORE, "--all"], {
      env: { HOME: home, TMPDIR: home, PI_CODING_AGENT_DIR: undefined, PI_CODING_AGENT_SESSION_DIR: undefined },
      cols: 160,
    });
    await app.waitFor("a copy of the demo store");
    await app.waitFor("❯");
    await app.press("r");
    await app.type("renamed by the demo");
    await app.press(KEY.enter);
    await app.waitFor('Renamed to "renamed by the demo"');
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);
    expect(folderHash(PI_STORE)).toBe(before);
    // The copy went to the temp folder, and went away with the browser (issue 20: none left behind).
    expect(readdirSync(home).some((n) => n.startsWith("pi-sessions-demo-"))).toBe(false);
  });
});
