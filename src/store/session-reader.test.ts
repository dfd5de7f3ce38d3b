import { describe, expect, it } from "vitest";
import type { SessionEntry, SessionHeader } from "../model/types.js";
import type { LineRef } from "./line-reader.js";
import { SessionReader } from "./session-reader.js";

function read(lines: string[]) {
  const entries: SessionEntry[] = [];
  let header: SessionHeader | undefined;
  const reader = new SessionReader({ header: (h) => void (header = h), entry: (e) => void entries.push(e) });
  lines.forEach((text, i) => {
    const buf = Buffer.from(text);
    const ref: LineRef = { buf, start: 0, end: buf.length, offset: 0, line: i + 1, terminated: true };
    reader.push(ref);
  });
  return { reader, entries, header };
}
const j = (o: unknown) => JSON.stringify(o);
const v1Header = j({ type: "session", id: "s1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/x" });

describe("SessionReader: v1 migration in memory", () => {
  const msg = (role: string, content: string) =>
    j({ type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role, content } });

  it("assigns ids in file order and chains each entry to the previous one", () => {
    const { reader, entries } = read([
      v1Header,
      msg("user", "a"),
      msg("assistant", "b"),
      j({ type: "model_change", provider: "p", modelId: "m" }),
    ]);
    expect(reader.version).toBe(1);
    // Deterministic stand-ins for pi's random ids: the entry's 0-based position, in hex.
    expect(entries.map((e) => [e.id, e.parentId])).toEqual([
      ["00000000", null],
      ["00000001", "00000000"],
      ["00000002", "00000001"],
    ]);
  });

  it("turns firstKeptEntryIndex (0 = header, over all lines) into firstKeptEntryId", () => {
    const { entries } = read([
      v1Header,
      msg("user", "a"),
      msg("assistant", "b"),
      msg("user", "c"),
      j({ type: "compaction", summary: "s", firstKeptEntryIndex: 3, tokensBefore: 1 }),
      j({ type: "compaction", summary: "s", firstKeptEntryIndex: 0, tokensBefore: 1 }),
      j({ type: "compaction", summary: "s", firstKeptEntryIndex: 99, tokensBefore: 1 }),
    ]);
    const [c1, c2, c3] = entries.filter((e) => e.type === "compaction");
    // Line index 3 is the third entry, "c".
    expect(entries.find((e) => e.id === c1.firstKeptEntryId)?.message?.content).toBe("c");
    expect(c1.parentId).toBe(entries[2].id);
    // The header and a missing target give no id; the index field is gone either way.
    expect(c2.firstKeptEntryId).toBeUndefined();
    expect(c3.firstKeptEntryId).toBeUndefined();
    expect(entries.some((e) => "firstKeptEntryIndex" in e)).toBe(false);
  });

  it("an unparsable line does not shift the indices of the lines after it", () => {
    // pi's index is over parsed entries; a skipped line takes no index.
    const { entries } = read([
      v1Header,
      msg("user", "a"),
      "{broken",
      msg("user", "b"),
      j({ type: "compaction", summary: "s", firstKeptEntryIndex: 2 }),
    ]);
    expect(entries).toHaveLength(3);
    expect(entries[1].message?.content).toBe("b");
    expect(entries[2].firstKeptEntryId).toBe(entries[1].id);
  });
});

describe("SessionReader: v2 and v3", () => {
  const hook = j({
    type: "message",
    id: "a1",
    parentId: null,
    timestamp: "t",
    message: { role: "hookMessage", customType: "h", content: "hi" },
  });

  it("v2: hookMessage becomes custom", () => {
    const { reader, entries } = read([j({ type: "session", version: 2, id: "s2" }), hook]);
    expect(reader.version).toBe(2);
    expect(entries[0].message?.role).toBe("custom");
    expect(entries[0].id).toBe("a1");
  });

  it("v3: roles are left alone", () => {
    const { entries } = read([j({ type: "session", version: 3, id: "s3" }), hook]);
    expect(entries[0].message?.role).toBe("hookMessage");
  });

  it("v3: an entry without an id is skipped with a warning; a bad parentId becomes null", () => {
    const { reader, entries } = read([
      j({ type: "session", version: 3, id: "s3" }),
      j({ type: "message", parentId: null, timestamp: "t", message: { role: "user", content: "x" } }),
      j({ type: "custom", id: "c1", parentId: 42, customType: "t" }),
    ]);
    expect(entries.map((e) => [e.id, e.parentId, e.timestamp])).toEqual([["c1", null, ""]]);
    expect(reader.warnings).toEqual(["line 2: entry without an id, skipped"]);
  });
});

describe("SessionReader: the header", () => {
  it("the first parsable line must be the header; unparsable lines before it are skipped", () => {
    const { reader, header } = read(["garbage", "", j({ type: "session", version: 3, id: "s" })]);
    expect(header?.id).toBe("s");
    expect(reader.rejected).toBeUndefined();
    expect(reader.warnings).toEqual(["line 1: malformed JSON, skipped"]);
  });

  it.each([["42"], [j({ type: "message", id: "x" })], [j({ type: "session", id: 7 })], ["null"]])(
    "rejects a file whose first parsed line is %s",
    (first) => {
      const { reader, header, entries } = read([
        first,
        j({ type: "session", version: 3, id: "s" }),
        j({ type: "custom", id: "c", parentId: null }),
      ]);
      expect(header).toBeUndefined();
      expect(reader.rejected).toMatch(/^line 1 is not a session header/);
      expect(entries).toEqual([]);
      expect(reader.done).toBe(true);
    },
  );

  it("caps the listed warnings but keeps counting", () => {
    const { reader } = read([j({ type: "session", version: 3, id: "s" }), ...Array.from({ length: 30 }, () => "{bad")]);
    expect(reader.skipped).toBe(30);
    expect(reader.warnings).toHaveLength(21);
    expect(reader.warnings[20]).toBe("more lines skipped (not listed)");
  });
});
