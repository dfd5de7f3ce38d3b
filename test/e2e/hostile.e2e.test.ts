// A hostile store in a real terminal: a label, a header id, a folder and a file name that
// carry OSC 0 (window title), OSC 52 (clipboard) and OSC 8 (hyperlink) sequences. The
// terminal's title must never change to theirs, and the program's raw output must hold no
// OSC 52, OSC 8 or 8-bit controls, through the list, the tree's label dialog, the rename
// and delete dialogs, and --print on a terminal.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../helpers/tmp-store.js";
import { KEY, startApp, type RunningApp } from "./pty.js";

const apps: RunningApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));
afterAll(cleanupTmp);

const TITLE = (t: string) => `\x1b]0;${t}\x07`;
const CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07";
const LINK = (text: string) => `\x1b]8;;https://evil.example/\x1b\\${text}\x1b]8;;\x1b\\`;

function hostileStore(): string {
  const store = join(makeTmpDir("pi-sessions-e2e-hostile-"), "sessions");
  const folder = join(store, `--tmp-${TITLE("PWNED-FOLDER")}proj--`);
  mkdirSync(folder, { recursive: true });
  const ts = (n: number) => new Date(Date.parse("2026-05-02T09:15:00Z") + n * 1000).toISOString();
  const lines = [
    // The id holds the sequences; name and first message are nothing once sanitized, so the
    // title falls back (to "(no messages)", never the raw id).
    {
      type: "session",
      version: 3,
      id: `${TITLE("PWNED-ID")}${CLIPBOARD}${LINK("id")}`,
      timestamp: "2026-05-02T09:14:03.221Z",
      cwd: "/tmp/proj",
    },
    {
      type: "message",
      id: "u1000000",
      parentId: null,
      timestamp: ts(1),
      message: { role: "user", content: TITLE("PWNED-MESSAGE"), timestamp: 1 },
    },
    {
      type: "message",
      id: "a1000000",
      parentId: "u1000000",
      timestamp: ts(2),
      message: {
        role: "assistant",
        content: [{ type: "text", text: `answer ${LINK("here")}` }],
        stopReason: "stop",
        model: "m",
        provider: "p",
      },
    },
    {
      type: "label",
      id: "l1000000",
      parentId: "a1000000",
      timestamp: ts(3),
      targetId: "u1000000",
      label: `${TITLE("PWNED-LABEL")}${CLIPBOARD}${LINK("click")}\x1b[31mred\u009b2J`,
    },
    { type: "session_info", id: "s1000000", parentId: "l1000000", timestamp: ts(4), name: TITLE("PWNED-NAME") },
  ];
  writeFileSync(
    join(folder, `2026-05-02T09-14-03-221Z_${CLIPBOARD}${TITLE("PWNED-FILE")}.jsonl`),
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  return store;
}

function expectNothingLeaked(app: RunningApp) {
  expect(app.titles().filter((t) => t.includes("PWNED"))).toEqual([]);
  const raw = app.raw();
  expect(raw).not.toContain("\x1b]52");
  expect(raw).not.toContain("\x1b]8;");
  expect(raw).not.toContain("PWNED");
  expect(raw).not.toMatch(/[\x80-\x9f]/);
}

describe("a hostile store in a real terminal", () => {
  it("list, tree label dialog, rename and delete dialogs: no title, clipboard or link escapes", async () => {
    const app = startApp(["--session-dir", hostileStore(), "--all"]);
    apps.push(app);
    await app.waitFor("(no messages)");
    await app.press("t");
    await app.waitFor("← active"); // the tree's rows are drawn: keys now act on them
    await app.press("g", "L");
    await app.waitFor("Label the entry");
    expect(app.screen()).toContain("Label: clickred");
    await app.press(KEY.escape, "q");
    await app.waitFor((s) => !s.includes("filter:"));
    await app.press("r");
    await app.waitFor("Rename session");
    await app.press(KEY.escape, "d");
    await app.waitFor("Delete session");
    await app.press(KEY.escape, "q");
    expect((await app.exited).exitCode).toBe(0);
    expectNothingLeaked(app);
  });

  it("--print on a terminal prints the chosen path sanitized", async () => {
    const app = startApp(["--session-dir", hostileStore(), "--all", "--print"]);
    apps.push(app);
    await app.waitFor("(no messages)");
    await app.press(KEY.enter);
    expect((await app.exited).exitCode).toBe(0);
    await app.waitFor("2026-05-02T09-14-03-221Z_");
    expectNothingLeaked(app);
  });
});
