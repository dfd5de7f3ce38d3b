// Fuzz: escape-laden strings in every field of a session that reaches the screen (folder
// and file names, id, cwd, name, label, messages, tool calls and outputs, models, custom
// types), written to a real store and shown by the real browser (list, preview, branch
// tree, label/rename/delete dialogs, status lines) and the CLI's text output. No control
// byte but the newline may leave the program; the JSON output stays exact.
import fc from "fast-check";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { formatRow } from "../components/list/rowFormat.js";
import { loadPreviewTail } from "../components/preview/loadPreviewTail.js";
import { previewLines } from "../components/preview/previewLines.js";
import { sessionTitle } from "../src/model/session-title.js";
import { scanStore } from "../src/scan/scan-store.js";
import { RAW } from "./helpers/keys.js";
import { cleanupInk, press, renderApp, resize, settle, waitForFrame } from "./helpers/ink.js";
import { runCli } from "./helpers/cli.js";
import { makeSummary } from "./helpers/sessions.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

/** Any control byte but the newline: escapes (ESC, 8-bit CSI/OSC), C0, DEL, C1. */
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;
const showControls = (s: string) =>
  s.replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/g, (c) => `<${c.charCodeAt(0).toString(16)}>`);

// Sequences a terminal acts on (title, clipboard, hyperlink, screen, modes, device
// queries, 8-bit forms), their broken halves, and text that must survive around them.
const NASTY = [
  "\x1b]0;PWNED\x07",
  "\x1b]2;PWNED\x1b\\",
  "\x1b]52;c;cm0gLXJmIH4=\x07",
  "\x1b]8;;https://evil.example\x1b\\",
  "\x1b]8;;\x1b\\",
  "\x1b[2J",
  "\x1b[31;1m",
  "\x1b[?1049l",
  "\x1b[6n",
  "\x1bP+q544e\x1b\\",
  "\x1b_apc\x1b\\",
  "\x1b^pm\x1b\\",
  "\x1bc",
  "\x1b7\x1b8",
  "\x9b2J",
  "\x9d0;PWNED\x9c",
  "\x90q\x9c",
  "\x1b",
  "\x1b]",
  "\x1b[",
  "\x07",
  "\x00",
  "\x08",
  "\r",
  "\n",
  "\t",
  "\x7f",
  "\x85",
  "\u202e",
  "\u2066",
  "\u200d",
  "👩‍👩‍👧",
  "❤️",
  "é",
  "日本",
  " ",
  "text",
];
const hostile = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 3 }) },
    ),
    {
      minLength: 1,
      maxLength: 6,
    },
  )
  .map((parts) => parts.join(""));
/** A file or folder name: no slash or NUL, at most ~120 bytes. */
const nameOf = (s: string) =>
  Buffer.from(s.replace(/[/\0]/g, "_"))
    .subarray(0, 120)
    .toString("utf8")
    .replace(/\ufffd$/, "");

const fields = fc.record({
  folder: hostile,
  file: hostile,
  id: hostile,
  cwd: hostile,
  name: hostile,
  label: hostile,
  user: hostile,
  reply: hostile,
  tool: hostile,
  command: hostile,
  output: hostile,
  model: hostile,
  custom: hostile,
  branch: hostile,
});
type Fields = typeof fields extends fc.Arbitrary<infer T> ? T : never;

const j = (o: unknown) => JSON.stringify(o);
const ts = (n: number) => new Date(Date.parse("2026-05-02T09:15:00Z") + n * 1000).toISOString();

/** A session with every field hostile, on disk in its own store. */
function writeHostileStore(f: Fields): { store: string; path: string } {
  const store = join(makeTmpDir("pi-sessions-fuzz-"), "sessions");
  const folder = join(store, `--${nameOf(f.folder)}--`);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `2026-05-02T09-14-03-221Z_${nameOf(f.file)}.jsonl`);
  const usage = {
    input: 10,
    output: 5,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 15,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01 },
  };
  const lines = [
    { type: "session", version: 3, id: f.id, timestamp: "2026-05-02T09:14:03.221Z", cwd: f.cwd },
    { type: "model_change", id: "m0000000", parentId: null, timestamp: ts(0), provider: f.model, modelId: f.model },
    {
      type: "message",
      id: "u1000000",
      parentId: "m0000000",
      timestamp: ts(1),
      message: { role: "user", content: f.user, timestamp: 1 },
    },
    {
      type: "message",
      id: "a1000000",
      parentId: "u1000000",
      timestamp: ts(2),
      message: {
        role: "assistant",
        content: [
          { type: "text", text: f.reply },
          { type: "toolCall", id: "t1", name: f.tool, arguments: { command: f.command } },
        ],
        provider: f.model,
        model: f.model,
        usage,
        stopReason: "toolUse",
      },
    },
    {
      type: "message",
      id: "r1000000",
      parentId: "a1000000",
      timestamp: ts(3),
      message: {
        role: "toolResult",
        toolCallId: "t1",
        toolName: f.tool,
        content: [{ type: "text", text: f.output }],
        isError: false,
      },
    },
    {
      type: "message",
      id: "a2000000",
      parentId: "r1000000",
      timestamp: ts(4),
      message: {
        role: "assistant",
        content: [{ type: "text", text: f.reply }],
        provider: f.model,
        model: f.model,
        usage,
        stopReason: "stop",
      },
    },
    {
      type: "message",
      id: "u2000000",
      parentId: "a1000000",
      timestamp: ts(5),
      message: { role: "user", content: f.branch, timestamp: 2 },
    },
    {
      type: "custom_message",
      id: "c1000000",
      parentId: "a2000000",
      timestamp: ts(6),
      customType: f.custom,
      content: f.custom,
      display: true,
    },
    { type: "label", id: "l1000000", parentId: "c1000000", timestamp: ts(7), targetId: "u1000000", label: f.label },
    { type: "session_info", id: "s1000000", parentId: "l1000000", timestamp: ts(8), name: f.name },
  ];
  writeFileSync(path, lines.map(j).join("\n") + "\n");
  return { store, path };
}

const env: Record<string, string | undefined> = {};
beforeAll(() => {
  // The browser's delete and undo use the real trash: a temporary one.
  const home = makeTmpDir("pi-sessions-fuzz-home-");
  for (const [k, v] of Object.entries({ XDG_DATA_HOME: join(home, "data"), XDG_STATE_HOME: join(home, "state") })) {
    env[k] = process.env[k];
    process.env[k] = v;
  }
});
afterAll(() => {
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  cleanupTmp();
});
afterEach(cleanupInk);

describe("fuzz: no control byte reaches the screen", () => {
  it("list rows, the preview and session titles, for any field (pure, many runs)", async () => {
    await fc.assert(
      fc.asyncProperty(fields, fc.integer({ min: 20, max: 160 }), async (f, width) => {
        const { store, path } = writeHostileStore(f);
        const { sessions } = await scanStore(store, {}, { probe: false });
        expect(sessions).toHaveLength(1);
        const s = sessions[0];
        const tail = await loadPreviewTail(path);
        const out = [
          sessionTitle(s),
          formatRow({ session: s, depth: 0, prefix: "" }, { width, selected: true, showCwd: true, now: Date.now() }),
          ...previewLines(s, { status: "ready", tail }, width, 40).map((l) => l.text),
        ].join("\n");
        if (CONTROL.test(out)) throw new Error(`control byte on screen: ${showControls(out)}`);
      }),
      { numRuns: 60 },
    );
  });

  it("the whole browser: list, preview, tree, label/rename/delete dialogs, status lines (real files)", async () => {
    await fc.assert(
      fc.asyncProperty(fields, async (f) => {
        const { store, path } = writeHostileStore(f);
        const h = await renderApp({
          all: true,
          storeDir: store,
          storeLabel: store,
          deps: {
            scan: (dir, handlers, options) => scanStore(dir, handlers, options),
            loadPreview: (p) => loadPreviewTail(p),
          },
        });
        const r = h.r;
        try {
          await resize(r, 100, 30);
          await waitForFrame(r, (s) => s.includes("1/1"), 5000);
          await settle(250); // the preview loads once the cursor rests
          await press(r, "t");
          await waitForFrame(r, (s) => s.includes("← active"), 5000);
          // The label dialog on the first rows (the labelled user entry among them).
          await press(r, "g", "L", RAW.escape, RAW.down, "L", RAW.escape, RAW.down, "L", RAW.escape);
          await press(r, "G", "f"); // fork at the last entry: a status line
          await settle(100);
          await press(r, RAW.escape);
          await waitForFrame(r, (s) => !s.includes("filter:"), 5000);
          await press(r, "r");
          await press(r, RAW.escape);
          // The original (the older row, below its fork): into the trash and back.
          await press(r, "G");
          const before = readFileSync(path);
          await press(r, "d");
          await press(r, "y"); // to the (temporary) trash: a status line
          await settle(150);
          await press(r, "u"); // undo: another
          await settle(150);
          const all = r.frames.join("\n");
          if (CONTROL.test(all)) throw new Error(`control byte on screen: ${showControls(all).slice(0, 2000)}`);
          // It went to the trash and came back, byte for byte.
          expect(all).toMatch(/Moved 1 session to the trash[\s\S]*Restored 1 session/);
          expect(readFileSync(path).equals(before)).toBe(true);
        } finally {
          await cleanupInk();
        }
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it("CLI text output (list, show, rename, label, delete, restore) and exact JSON", async () => {
    await fc.assert(
      fc.asyncProperty(fields, async (f) => {
        const { store, path } = writeHostileStore(f);
        const home = makeTmpDir("pi-sessions-fuzz-cli-");
        const cliEnv = { HOME: home, XDG_DATA_HOME: join(home, "data"), XDG_STATE_HOME: join(home, "state") };
        const runs = [
          await runCli(["list", "--all", "--session-dir", store], { env: cliEnv }),
          await runCli(["show", path], { env: cliEnv }),
          await runCli(["rename", path, f.name], { env: cliEnv }),
          await runCli(["label", path, "u1000000", f.label], { env: cliEnv }),
        ];
        // Trashed and restored: the file comes back byte for byte.
        const before = readFileSync(path);
        runs.push(await runCli(["delete", path, "--yes"], { env: cliEnv }));
        expect(existsSync(path)).toBe(false);
        runs.push(await runCli(["restore", "--last", "--session-dir", store], { env: cliEnv }));
        expect(readFileSync(path).equals(before)).toBe(true);
        runs.push(await runCli(["show", f.id || "x", "--session-dir", store], { env: cliEnv }));
        for (const r of runs) {
          const text = r.stdout + r.stderr;
          if (CONTROL.test(text)) throw new Error(`control byte in CLI output: ${showControls(text)}`);
        }
        const json = await runCli(["list", "--all", "--json", "--session-dir", store], { env: cliEnv });
        const [row] = JSON.parse(json.stdout) as { path: string; id: string; cwd: string }[];
        expect(row).toMatchObject({ path, id: f.id, cwd: f.cwd });
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});

describe("fuzz: summaries made in memory", () => {
  it("formatRow never lets a control byte through, at any width", () => {
    fc.assert(
      fc.property(
        hostile,
        hostile,
        hostile,
        hostile,
        fc.integer({ min: 1, max: 200 }),
        (name, first, cwd, id, width) => {
          const row = formatRow(
            { session: makeSummary({ name, firstMessage: first, cwd, id }), depth: 0, prefix: "" },
            { width, selected: false, showCwd: true, now: Date.now() },
          );
          expect(row).not.toMatch(CONTROL);
        },
      ),
      { numRuns: 500 },
    );
  });
});
