import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assistant, entry, user, writeSession } from "../../test/helpers/session-file.js";
import { readEntriesSync } from "../store/read-entries.js";
import { loadSessionIndex, type SessionIndex } from "../store/session-index.js";
import { activePath } from "../model/tree.js";
import { buildBlocks, type Block, type BlockList } from "./blocks.js";
import { lazyBlocks } from "./lazy.js";
import { Transcript } from "./transcript.js";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures");

function sessionFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(dir, f));
}

/** Every block that shows something, with lazily read outputs read. */
function materialize(list: BlockList): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < list.length; i++) {
    const b = list.get(i);
    if (!b) continue;
    if (b.kind === "tool" && b.load) {
      const { bytes: _bytes, load, ...rest } = b;
      out.push({ ...rest, ...load() });
    } else out.push(b);
  }
  return out;
}

function eager(index: SessionIndex, ids = activePath(index)): Block[] {
  return buildBlocks(readEntriesSync(index, ids));
}

const big = (n: number) => `${"0123456789abcdef\n".repeat(Math.ceil(n / 17))}`;

/** 40 more turns, so that the start of a session lies outside the chunk of blocks read with its end. */
function filler(after: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let prev = after;
  for (let i = 0; i < 40; i++) {
    out.push(user(`fu${i}`, prev, `filler question ${i}`), assistant(`fa${i}`, `fu${i}`, `filler answer ${i}`));
    prev = `fa${i}`;
  }
  return out;
}

function sampleSession(more = false) {
  const s = writeSession([
    user("u1", null, "hello"),
    entry("a1", "u1", {
      message: {
        role: "assistant",
        stopReason: "toolUse",
        content: [
          { type: "thinking", thinking: "plan" },
          { type: "toolCall", id: "c1", name: "bash", arguments: { command: "cat big" } },
          { type: "toolCall", id: "c2", name: "read", arguments: { path: "small" } },
          { type: "toolCall", id: "c3", name: "read", arguments: { path: "never answered" } },
        ],
      },
    }),
    entry("r2", "a1", {
      message: {
        role: "toolResult",
        toolCallId: "c2",
        toolName: "read",
        content: [{ type: "text", text: "small output" }],
        isError: true,
      },
    }),
    entry("r1", "r2", {
      message: {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "bash",
        content: [{ type: "text", text: big(100_000) }],
        isError: false,
      },
    }),
    entry("a2", "r1", {
      message: {
        role: "assistant",
        stopReason: "toolUse",
        content: [{ type: "toolCall", id: "c4", name: "ls", arguments: {} }],
      },
    }),
    entry("r4", "a2", {
      message: { role: "toolResult", toolCallId: "c4", toolName: "ls", content: [{ type: "text", text: "a b" }] },
    }),
    entry("x1", "r4", {
      message: { role: "bashExecution", command: "make", output: big(40_000), exitCode: 2, cancelled: false },
    }),
    entry("x2", "x1", {
      message: {
        role: "bashExecution",
        command: `echo ${"long ".repeat(60)}`,
        output: "ok",
        exitCode: 0,
        cancelled: false,
      },
    }),
    entry("o1", "x2", {
      message: {
        role: "toolResult",
        toolCallId: "nobody",
        toolName: "grep",
        content: [{ type: "text", text: "orphan" }],
      },
    }),
    entry("h1", "o1", { type: "custom_message", customType: "todo", content: "hidden", display: false }),
    entry("s1", "h1", { type: "custom_message", customType: "todo", content: "shown", display: true }),
    entry("c1x", "s1", { type: "compaction", summary: "sum", firstKeptEntryId: "u1", tokensBefore: 5 }),
    entry("f1", "c1x", {
      message: {
        role: "assistant",
        stopReason: "error",
        errorMessage: "boom",
        content: [{ type: "toolCall", id: "c9", name: "bash", arguments: { command: "x" } }],
      },
    }),
    entry("l1", "f1", { type: "label", targetId: "u1", label: "x" }),
    assistant("z", "l1", "bye"),
    ...(more ? filler("z") : []),
  ]);
  cleanups.push(s.cleanup);
  return s;
}

describe("lazyBlocks", () => {
  it("gives the same blocks as reading the whole branch (bulky outputs read when asked)", async () => {
    const s = sampleSession(true);
    const index = await loadSessionIndex(s.path, { skim: true });
    expect(materialize(lazyBlocks(index, activePath(index)))).toEqual(eager(index));
  });

  it.each(["pi-generated", "damaged"])(
    "agrees with the eager blocks on every %s fixture, active and other branches",
    async (store) => {
      let checked = 0;
      for (const path of sessionFiles(join(FIXTURES, store))) {
        let index: SessionIndex;
        try {
          index = await loadSessionIndex(path, { skim: true });
        } catch {
          continue; // not a session
        }
        for (const leaf of index.nodes.filter((n) => !index.tree.children.get(n.id)?.length)) {
          const ids = activePath({ tree: index.tree, leafId: leaf.id });
          expect(materialize(lazyBlocks(index, ids)), `${path} @ ${leaf.id}`).toEqual(eager(index, ids));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(10);
    },
  );

  it("reads nothing until a block is asked for, and a bulky output only when shown", async () => {
    const s = sampleSession(true);
    const index = await loadSessionIndex(s.path, { skim: true });
    // Spoil the bytes of the bulky result and of the first message (same length): reading
    // either would now fail, so any read of them shows.
    const original = readFileSync(s.path);
    const spoil = (ids: string[]) => {
      const raw = Buffer.from(original);
      for (const id of ids) {
        const n = index.byId.get(id)!;
        raw.fill(0x20, n.offset, n.offset + n.length);
        raw.write("{", n.offset);
      }
      writeFileSync(s.path, raw);
    };
    spoil(["u1", "r1"]);
    const list = lazyBlocks(index, activePath(index));
    const t = new Transcript(list, { width: 80 });
    // Open at the end: the screen holds the last blocks; the start of the session is not read.
    const screen = t.window(t.tail(12), 12).map((l) => l.text);
    expect(screen).toContain("  filler answer 39");
    // What cannot be read back is a note in place, never an error (the screen stays up).
    expect(
      t
        .lines(0)
        .map((l) => l.text.trim())
        .join(" "),
    ).toMatch(/cannot show this part:[\s\S]*changed[\s\S]*since[\s\S]*it[\s\S]*was[\s\S]*read/);

    // Blocks are read a chunk at a time; the bulky result is not read with its chunk.
    spoil(["r1"]);
    const list2 = lazyBlocks(index, activePath(index));
    const t2 = new Transcript(list2, { width: 80 });
    const bulky = Array.from({ length: list2.length }, (_, i) => i).find((i) => list2.kind(i) === "tool")!;
    expect(t2.lines(bulky)[0].text).toMatch(/^ {2}▸ bash: cat big · 10\d KB$/);
    expect(t2.lines(0)[1].text).toBe("  hello");
    // Expanded, it is read: here that fails, as the bytes were spoiled; a note says so.
    t2.cycleTool(bulky);
    expect(
      t2
        .lines(bulky)
        .map((l) => l.text.trim())
        .join(" "),
    ).toMatch(/cannot read this output: line \d+ of /);
    // A failed read is not kept: once the bytes are back, the block list reads it (the reader, reopened, shows it).
    writeFileSync(s.path, original);
    const t3 = new Transcript(list2, { width: 80 });
    t3.cycleTool(bulky);
    expect(t3.lines(bulky)[1].text).toBe("    0123456789abcdef");
  });

  it("a turn of tool calls alone within a turn shows nothing for itself; a Transcript skips such blocks", async () => {
    const s = sampleSession();
    const index = await loadSessionIndex(s.path, { skim: true });
    const list = lazyBlocks(index, activePath(index));
    const empty = Array.from({ length: list.length }, (_, i) => i).filter((i) => list.get(i) === null);
    expect(empty.map((i) => list.kind(i))).toEqual(["assistant", "custom"]);
    const t = new Transcript(list, { width: 80 });
    // Walking the whole transcript line by line never lands in an empty block.
    let pos = t.start;
    for (let i = 0; i < 200; i++) {
      expect(t.lines(pos.block).length).toBeGreaterThan(0);
      pos = t.move(pos, 1);
    }
    expect(pos).toEqual(t.end);
    for (const i of empty) expect(t.jumpMessage({ block: i - 1, line: 0 }, 1).block).not.toBe(i);
  });
});
