import { gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { ListMembers } from "./list-members.js";

// Counts the members unzipped (ListMembers' gunzipSync), the real one doing the work.
const zlib = vi.hoisted(() => ({ gunzips: 0 }));
vi.mock("node:zlib", async (original) => {
  const real = await original<typeof import("node:zlib")>();
  return {
    ...real,
    gunzipSync: (b: Uint8Array) => {
      zlib.gunzips++;
      return real.gunzipSync(b);
    },
  };
});

const b = (s: string) => Buffer.from(s);

/** A list text of two gzip members: `gen` and row 0 in the first, row 1 in the second. */
function listText(gen: string, row0: [string, string], row1: [string, string]) {
  const m0 = gzipSync(b(gen + "\n" + row0[0] + row0[1]));
  const m1 = gzipSync(b(row1[0] + row1[1]));
  const text = Buffer.concat([m0, m1]);
  return { text, memberAt: [0, m0.length, text.length] };
}

describe("ListMembers", () => {
  const lh = [3, 3];
  const lt = [2, 2];
  const memberRow = [0, 1];

  it("reads each row's pieces out of its member", () => {
    const { text, memberAt } = listText("g1", ["aaa", "AA"], ["bbb", "BB"]);
    const r = new ListMembers(text, b("g1\n"), memberRow, memberAt, lh, lt);
    expect(r.pieces(1)?.map((p) => Buffer.from(p).toString())).toEqual(["bbb", "BB"]);
    expect(r.pieces(0)?.map((p) => Buffer.from(p).toString())).toEqual(["aaa", "AA"]);
  });

  it("gives no row's pieces out of another generation's text whose members are laid out alike", () => {
    const { text, memberAt } = listText("g2", ["xxx", "XX"], ["yyy", "YY"]);
    const r = new ListMembers(text, b("g1\n"), memberRow, memberAt, lh, lt);
    // Row 1's member unzips to the length its rows say: only member 0 tells it is not ours.
    expect(r.pieces(1)).toBeUndefined();
    expect(r.pieces(0)).toBeUndefined();
    expect(r.has(1)).toBe(false);
  });
});

describe("ListMembers.has", () => {
  it("keeps the first member it unzipped for the pieces asked next", () => {
    const { text, memberAt } = listText("g1", ["aaa", "AA"], ["bbb", "BB"]);
    const r = new ListMembers(text, b("g1\n"), [0, 1], memberAt, [3, 3], [2, 2]);
    zlib.gunzips = 0;
    expect(r.has(0)).toBe(true);
    expect(r.pieces(0)?.map((p) => Buffer.from(p).toString())).toEqual(["aaa", "AA"]);
    expect(zlib.gunzips).toBe(1);
  });
});

describe("ListMembers.fits", () => {
  it("takes no member starting at or past the last row", () => {
    const text = Buffer.alloc(10);
    expect(ListMembers.fits(text, [0, 1], [0, 5, 10], 2)).toBe(true);
    expect(ListMembers.fits(text, [0, 2], [0, 5, 10], 2)).toBe(false);
  });
});
