import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { makeSummary } from "../../../test/helpers/sessions.js";
import { displayWidth } from "../../text/sanitize.js";
import { formatTable, uniquePrefixLength } from "./list.js";

describe("uniquePrefixLength", () => {
  it("is at least 8", () => {
    expect(uniquePrefixLength([])).toBe(8);
    expect(uniquePrefixLength(["abcdefghij"])).toBe(8);
    expect(uniquePrefixLength(["aaaaaaaa-1", "bbbbbbbb-1"])).toBe(8);
  });
  it("grows until ids sharing a long prefix (UUIDv7 timestamps) differ", () => {
    const ids = [
      "01a1fcb4-5de5-7643-a74f-8edcea19b8ca",
      "01a1fcb4-5de5-7643-a74f-8b79df0801e6",
      "01a1fcb4-5de9-7430-8318-907e86915fe6",
    ];
    const len = uniquePrefixLength(ids);
    expect(len).toBe(26); // "01a1fcb4-5de5-7643-a74f-8" is shared by two
    expect(new Set(ids.map((i) => i.slice(0, len))).size).toBe(3);
    expect(new Set(ids.map((i) => i.slice(0, len - 1))).size).toBe(2);
  });
  it("ignores exact duplicates", () => {
    expect(uniquePrefixLength(["0123456789abc", "0123456789abc", "01234567zz"])).toBe(9);
  });
  it("honours a custom minimum", () => {
    expect(uniquePrefixLength(["ab", "ac"], 1)).toBe(2);
  });
  it("tells apart ids made in the same millisecond (the same first 12 hex digits)", () => {
    expect(uniquePrefixLength(["01a1fcb4-5de5-7000-8000-000000000001", "01a1fcb4-5de5-7000-8000-000000000002"])).toBe(
      36,
    );
  });
  it("counts the dash when an id of another form shares 8 hex digits with a UUID", () => {
    // "01234567" is shared with no UUID: "0123456" is, so 8 characters tell them apart.
    expect(uniquePrefixLength(["01234567-89ab-7000", "01234560x"])).toBe(8);
    expect(uniquePrefixLength(["01234567-89ab-7000", "01234567x"])).toBe(9);
    expect(uniquePrefixLength(["01234567-89ab-7000", "01234567-8x"])).toBe(11);
  });
  it("is what the longest prefix shared by two different ids in sorted order says, for any ids", () => {
    // The rule as it was computed: every id sorted, each with the next.
    const bySorting = (ids: string[], min: number) => {
      const sorted = [...ids].sort();
      let len = min;
      for (let i = 1; i < sorted.length; i++) {
        const [a, b] = [sorted[i - 1], sorted[i]];
        let k = 0;
        while (k < a.length && k < b.length && a[k] === b[k]) k++;
        if (a !== b) len = Math.max(len, k + 1);
      }
      return len;
    };
    // Few characters, so that ids share long prefixes, repeat and are prefixes of each other.
    const id = fc.string({ unit: fc.constantFrom("0", "1", "-", "é", "\ud83d", "\ude80"), maxLength: 14 });
    // pi's ids: lowercase UUIDs (a few digits, so that they share long prefixes), some repeated,
    // some cut short or with a capital or another character (then sorted as strings).
    const digits = (n: number) => fc.string({ unit: fc.constantFrom("0", "1", "f"), minLength: n, maxLength: n });
    const uuid = fc
      .tuple(digits(8), digits(4), digits(4), fc.nat(16))
      .map(([a, b, c, at]) => `${a}-${b}-${c}`.slice(0, 18 - (at % 6)));
    const odd = fc.constantFrom("01234567-89ab", "0000", "x", "0000000A-0000", "00000000-000é", "00000000-0000");
    const uuids = fc.oneof(
      fc.array(uuid, { maxLength: 60 }),
      fc.array(fc.oneof(uuid, uuid, uuid, odd), { maxLength: 60 }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.array(id, { maxLength: 60 }), uuids), fc.integer({ min: 0, max: 9 }), (ids, min) => {
        expect(uniquePrefixLength(ids, min)).toBe(bySorting(ids, min));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("formatTable", () => {
  const now = Date.parse("2025-01-16T12:00:00Z");
  const sessions = [
    makeSummary({
      id: "11111111-aaaa",
      cwd: "/Users/kim/code/研究",
      name: "会话 分支 🚀",
      messageCount: 120,
      bytes: 5_000_000,
    }),
    makeSummary({ id: "22222222-bbbb", cwd: "/srv/x", firstMessage: "plain ascii", messageCount: 3, bytes: 10 }),
    makeSummary({ id: "33333333-cccc", cwd: "/家", name: "naïve café", messageCount: 45, bytes: 2048 }),
  ];

  it.each([true, false])("columns line up by display width with CJK text (withCwd %s)", (withCwd) => {
    const out = formatTable(sessions, withCwd, now);
    const rows = out.trimEnd().split("\n");
    expect(rows).toHaveLength(4);
    // The title is the last column: its start column must be the same on every row.
    const titles = ["TITLE", "会话 分支 🚀", "plain ascii", "naïve café"];
    const starts = rows.map((r, i) => {
      const at = r.lastIndexOf(titles[i]);
      expect(at, r).toBeGreaterThan(0);
      return displayWidth(r.slice(0, at));
    });
    expect(new Set(starts).size).toBe(1);
    if (withCwd) {
      const cwdStarts = rows.map((r, i) => displayWidth(r.slice(0, r.indexOf(["CWD", "/Users", "/srv", "/家"][i]))));
      expect(new Set(cwdStarts).size).toBe(1);
    }
    // MSGS is right-aligned: the counts end at the same column.
    const ends = rows.slice(1).map((r, i) => {
      const m = String(sessions[i].messageCount);
      return displayWidth(r.slice(0, r.indexOf(` ${m} `) + 1 + m.length));
    });
    expect(new Set(ends).size).toBe(1);
    expect(out.endsWith("\n")).toBe(true);
  });

  it("in a pipe cuts nothing: the whole cwd and the whole title", () => {
    const cwd = "/home/dev/src/github.com/acme/pi-mono-11/packages/coding-agent";
    const title = "refactor the session store ".repeat(12).trim();
    const long = makeSummary({ id: "44444444-dddd", cwd, name: title });
    const out = formatTable([...sessions, long], true, now);
    const row = out.split("\n").find((l) => l.includes("44444444"))!;
    expect(row).toContain(cwd);
    expect(row.endsWith(title)).toBe(true);
    expect(out).not.toContain("…");
    // On a terminal the row fits it.
    for (const l of formatTable([...sessions, long], true, now, 100)
      .trimEnd()
      .split("\n"))
      expect(displayWidth(l)).toBeLessThanOrEqual(100);
  });

  it("groups a message count's digits", () => {
    const many = makeSummary({ id: "55555555-eeee", messageCount: 12345 });
    expect(formatTable([many, ...sessions], false, now)).toMatch(/ 12,345 /);
  });

  it("ids are cut to their unique prefix", () => {
    const out = formatTable(sessions, false, now);
    expect(out).toContain("11111111 ");
    expect(out).not.toContain("11111111-");
  });

  it("no raw control characters from names, cwds or ids", () => {
    const evil = makeSummary({ id: "\u001b]0;x\u0007abcdefgh", cwd: "/\u001b[31m", name: "a\u009b2Jb\u001b[0m" });

    expect(formatTable([evil], true, now)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});

describe("safeJson", () => {
  it("escapes C1 controls that JSON.stringify leaves raw, and stays parseable", async () => {
    const { safeJson } = await import("../common/json.js");
    const out = safeJson({ t: "a\u009b31mb\u001b" });
    expect(out).not.toMatch(/[\u0080-\u009f\u001b]/);
    expect(JSON.parse(out)).toEqual({ t: "a\u009b31mb\u001b" });
  });
});
