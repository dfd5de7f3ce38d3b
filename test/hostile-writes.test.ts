// Appends while another process writes the same file, the way a running pi (or a slower,
// hostile writer) does. Over many runs we count what must never happen: a line that does
// not parse (a split line) and one of our entries parented on anything but the line just
// before it (the last entry at the moment of writing).
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { labelEntry } from "../src/actions/label.js";
import { renameSession } from "../src/actions/rename.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

// A test that times out never reaches its own stop: its writer would go on appending
// (up to gigabytes) after the run. Every child is killed here, whatever happened.
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
  cleanupTmp();
});

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

const HEADER = {
  type: "session",
  version: 3,
  id: "dddd4444-0000-7000-8000-000000000004",
  timestamp: "2026-05-02T09:14:03.221Z",
  cwd: "/tmp/proj",
};
const FIRST = {
  type: "message",
  id: "u0000000",
  parentId: null,
  timestamp: "2026-05-02T09:15:00.000Z",
  message: { role: "user", content: "q", timestamp: 1 },
};

// Appends `count` tool results, 2–20 ms apart, each parented at the last line it wrote:
// one appendFileSync per line, as pi writes. It stops once the file passes `maxBytes`, so
// a machine slower than the writer costs bounded time, not a file growing without end.
const WRITER = `
const { appendFileSync, statSync } = require("node:fs");
const [file, count, maxBytes] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const between = (a, b) => a + Math.floor(Math.random() * (b - a + 1));
let parent = "u0000000";
for (let i = 0; i < count && statSync(file).size < maxBytes; i++) {
  const id = "w" + String(i).padStart(7, "0");
  // Tool outputs of 50–200 KB, as pi writes them: re-reading the tail takes a while.
  const output = "o".repeat(between(50_000, 200_000));
  const message = { role: "toolResult", toolCallId: "c" + i, toolName: "bash", content: [{ type: "text", text: output }], isError: false, timestamp: Date.now() };
  appendFileSync(file, JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date().toISOString(), message }) + "\\n");
  pause(between(2, 20));
  parent = id;
}
`;

// Writes one line in two pieces per number read on stdin, pausing that many ms between
// them; says "mid" after the first piece and "end" after the second.
const STALLING_WRITER = `
const { appendFileSync } = require("node:fs");
const file = process.argv[1];
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let parent = "u0000000";
let i = 0;
require("node:readline").createInterface({ input: process.stdin }).on("line", (ms) => {
  const id = "w" + String(i++).padStart(7, "0");
  const line = JSON.stringify({ type: "custom", id, parentId: parent, timestamp: new Date().toISOString(), customType: "writer" }) + "\\n";
  const cut = Math.floor(line.length / 2);
  appendFileSync(file, line.slice(0, cut));
  process.stdout.write("mid\\n");
  pause(Number(ms));
  appendFileSync(file, line.slice(cut));
  process.stdout.write("end\\n");
  parent = id;
});
`;

function session(): string {
  const file = join(makeTmpDir(), "2026-05-02T09-14-03-221Z_dddd4444.jsonl");
  writeFileSync(file, `${JSON.stringify(HEADER)}\n${JSON.stringify(FIRST)}\n`);
  return file;
}

/** Where the writer stops (~300 of its lines): every label re-reads the whole file, so its size is the test's time. */
const WRITER_MAX_BYTES = 40 * 1024 * 1024;

function startWriter(file: string, count: number) {
  const child = track(
    spawn(process.execPath, ["-e", WRITER, file, String(count), String(WRITER_MAX_BYTES)], { stdio: "ignore" }),
  );
  const exited = new Promise<number | null>((r) => child.on("exit", r));
  /** Stops the writer (between two writes: each is one write call) and waits for it. */
  const stop = async () => {
    child.kill();
    await exited;
  };
  return { exited, stop };
}

/**
 * Lines that do not parse, and our entries whose parent is not the entry just before them.
 * A stray is a copy of ours that landed behind a line another writer wrote in the same
 * microseconds: appendEntry wrote it again, parented right (the copy is what it returned),
 * so a stray is never anyone's expected parent.
 */
function audit(file: string, ours: Set<string>) {
  const lines = readFileSync(file, "utf8").split("\n").slice(0, -1);
  let bad = 0;
  let misparented = 0;
  let strays = 0;
  let prevId: string | null = null;
  // Writer lines seen since our first entry, and their count at our last entry.
  let writerSinceOurs = -1;
  let interleaved = 0;
  for (const line of lines) {
    let e: { id?: string; parentId?: string | null; type?: string };
    try {
      e = JSON.parse(line);
    } catch {
      bad++;
      prevId = null;
      continue;
    }
    const id = e.id ?? "";
    if (ours.has(id)) {
      if (e.parentId !== prevId) misparented++;
      if (writerSinceOurs < 0) writerSinceOurs = 0;
      interleaved = writerSinceOurs;
    } else if (id.startsWith("w")) {
      if (writerSinceOurs >= 0) writerSinceOurs++;
    } else if (e.type !== "session" && id !== "u0000000") {
      strays++;
      continue;
    }
    prevId = id || null;
  }
  return { bad, misparented, strays, interleaved, lines: lines.length };
}

describe("appending beside another writer", () => {
  it("lines appended every 2–20 ms during `label`: every label is parented on the last entry at write time (4 runs × 80 labels)", async () => {
    const totals = { bad: 0, misparented: 0, labels: 0, strays: 0 };
    for (let run = 0; run < 4; run++) {
      const file = session();
      const writer = startWriter(file, 100_000);
      while (readFileSync(file).length < 400) await new Promise((r) => setTimeout(r, 2));
      const ours = new Set<string>();
      for (let i = 0; i < 80; i++) ours.add((await labelEntry(file, "u0000000", `label ${run}.${i}`)).id);
      await writer.stop();
      const a = audit(file, ours);
      // The writes did interleave: some of the writer's lines sit between our labels.
      expect(a.interleaved).toBeGreaterThan(0);
      totals.bad += a.bad;
      totals.misparented += a.misparented;
      totals.labels += ours.size;
      totals.strays += a.strays;
    }
    expect({ ...totals, strays: undefined }).toEqual({ bad: 0, misparented: 0, labels: 320, strays: undefined });
    // Collisions are rare (the window is one system call wide): 0–2 per 320 seen here.
    expect(totals.strays).toBeLessThan(16);
  }, 60_000);

  it("a writer pausing 10–400 ms inside its line while we rename: its line is never split, ours follows it", async () => {
    const file = session();
    // In lock step, so each rename starts while the writer is inside its line.
    const child = spawn(process.execPath, ["-e", STALLING_WRITER, file], { stdio: ["pipe", "pipe", "ignore"] });
    track(child);
    const said: string[] = [];
    let heard: (() => void) | undefined;
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      said.push(...d.split("\n").filter(Boolean));
      heard?.();
    });
    const hear = async (word: string, count: number) => {
      while (said.filter((w) => w === word).length < count) await new Promise<void>((r) => (heard = r));
    };
    const ours = new Set<string>();
    const pauses = [10, 20, 40, 40, 60, 100, 200, 400];
    for (const [i, pause] of pauses.entries()) {
      child.stdin.write(`${pause}\n`);
      await hear("mid", i + 1);
      ours.add((await renameSession(file, `name ${i}`)).id);
      await hear("end", i + 1);
    }
    child.stdin.end();
    const a = audit(file, ours);
    expect(a).toEqual({
      bad: 0,
      misparented: 0,
      strays: 0,
      interleaved: pauses.length - 1,
      lines: 2 + 2 * pauses.length,
    });
  }, 30_000);
});
