import { describe, expect, it } from "vitest";
import { formatTableLines } from "../commands/list.js";
import { KeptTableWriter, keptTable } from "./kept-list-table.js";

const HOUR = 3_600_000;
const now = Date.parse("2026-11-28T12:00:00Z");
const row = (id: string, ageMs: number, title: string, cwd = "/home/dev/研究") => ({
  id,
  path: `/s/${id}.jsonl`,
  cwd,
  name: title,
  firstMessage: undefined,
  modified: new Date(now - ageMs),
  messageCount: 1234,
  bytes: 9000,
  mtimeMs: now - ageMs,
  warnings: [],
});
const rows = [
  row("0196e0a2-8c1d-7b3e-9f40-00000000000a", 59 * 60_000 + 30_000, "🚀 emoji and 分支 CJK"),
  row("0196e0a2-8c1d-7b3e-9f40-00000000000b", 3 * HOUR, "👩‍💻 a ZWJ and café"),
  row("0196e0a2-8c1d-7b3e-9f40-00000000000c", 20 * 24 * HOUR, "plain", "/tmp"),
  { ...row("0196e0a2-8c1d-7b3e-9f40-00000000000d", 0, "no date"), modified: new Date(NaN) },
];

/** Chunks made one after another in one buffer: each read before the next is made. */
function chunksText(chunks: Iterable<Uint8Array>): string {
  let text = "";
  for (const c of chunks) text += Buffer.from(c).toString();
  return text;
}

/** The table as `list` writes it at `t`, and kept at `keptAt` then written at `t`. */
function both(t: number, keptAt: number, columns?: number) {
  const text = (at: number) => formatTableLines(rows, true, at, columns).join("\n") + "\n";
  const w = new KeptTableWriter(
    Float64Array.from(rows, (r) => r.modified.getTime()),
    keptAt,
  );
  w.add(text(keptAt));
  const table = keptTable(Buffer.concat(w.finish()!), t, columns);
  return { fresh: text(t), kept: table && chunksText(table.chunks(64)) };
}

describe("a kept text list", () => {
  it("says what the table says at another moment: ages, their width and padding", () => {
    for (const later of [0, 60_000, HOUR, 30 * 24 * HOUR, 400 * 24 * HOUR]) {
      const { fresh, kept } = both(now + later, now);
      expect(kept).toBe(fresh);
    }
    expect(both(now + 60_000, now).kept).toContain("\n1h  ");
  });

  it("on a terminal, is no answer once the AGE column is another width (the title is cut to what is left)", () => {
    expect(both(now + HOUR, now, 60).kept).toBe(both(now + HOUR, now, 60).fresh);
    // 3 columns wide when kept; "11mo" later: 4.
    expect(both(now + 320 * 24 * HOUR, now, 60).kept).toBeUndefined();
    expect(both(now + 320 * 24 * HOUR, now).kept).toBe(both(now + 320 * 24 * HOUR, now).fresh);
  });

  it("keeps nothing of lines that are not the table's (another clock's ages)", () => {
    const w = new KeptTableWriter(
      Float64Array.from(rows, (r) => r.modified.getTime()),
      now,
    );
    w.add(formatTableLines(rows, true, now + 2 * HOUR).join("\n") + "\n");
    expect(w.finish()).toBeUndefined();
  });
});

describe("kept bytes that are not a kept table", () => {
  const kept = () => {
    const w = new KeptTableWriter(
      Float64Array.from(rows, (r) => r.modified.getTime()),
      now,
    );
    w.add(formatTableLines(rows, true, now).join("\n") + "\n");
    return Buffer.concat(w.finish()!);
  };

  it("is no table: another layout's magic, or lines whose last end is not the text's end", () => {
    expect(keptTable(kept(), now, undefined)).toBeDefined();
    const magic = kept();
    magic.write("PLT2", 0);
    expect(keptTable(magic, now, undefined)).toBeUndefined();
    // The text one byte short of what its line ends say (or one byte more).
    expect(keptTable(kept().subarray(0, kept().length - 1), now, undefined)).toBeUndefined();
    expect(keptTable(Buffer.concat([kept(), Buffer.from("x")]), now, undefined)).toBeUndefined();
  });

  it("is made in one buffer, a chunk at a time: nothing more to touch than a chunk's worth", () => {
    const w = new KeptTableWriter(
      Float64Array.from(rows, (r) => r.modified.getTime()),
      now,
    );
    w.add(formatTableLines(rows, true, now).join("\n") + "\n");
    // Chunks of two lines or so (a line is longer than 64 bytes: it gets a buffer of its own).
    const at: number[] = [];
    for (const c of keptTable(Buffer.concat(w.finish()!), now, undefined)!.chunks(250)) at.push(c.byteOffset);
    expect(at.length).toBeGreaterThan(1);
    expect(new Set(at).size).toBe(1);
  });

  it("reads the kept lines from its file a chunk at a time as it writes them", () => {
    const w = new KeptTableWriter(
      Float64Array.from(rows, (r) => r.modified.getTime()),
      now,
    );
    const fresh = formatTableLines(rows, true, now).join("\n") + "\n";
    w.add(fresh);
    const bytes = Buffer.concat(w.finish()!);
    const reads: number[] = [];
    const file = {
      bytes: bytes.length,
      read: (into: Uint8Array, at: number) => (reads.push(into.length), bytes.copy(into, 0, at)),
    };
    const table = keptTable(file, now, undefined)!;
    reads.length = 0;
    expect(chunksText(table.chunks(250))).toBe(fresh);
    // The header's line and the first row's, then the other rows' (each line shorter than 250 bytes).
    expect(reads.length).toBeGreaterThan(1);
    expect(Math.max(...reads)).toBeLessThanOrEqual(250);
  });
});
