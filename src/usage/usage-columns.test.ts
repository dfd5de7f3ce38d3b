import { describe, expect, it } from "vitest";
import type { UsageSlice } from "../model/types.js";
import { aggregateUsage, USAGE_BYS } from "./aggregate.js";
import { decodeUsageColumns, encodeUsageColumns, type UsageRow } from "./usage-columns.js";
import { cwdScope, cwdScopeByFolder } from "../store/scope.js";

const slice = (day: string, model: string, n: number, cost: number): UsageSlice => ({
  day,
  model,
  input: n,
  output: n * 2 + 0.5,
  cacheRead: 2 ** 40 + n,
  cacheWrite: -0,
  cost,
});

/** Sessions over three folders, with costs whose sums depend on the order they are added in. */
function rows(): UsageRow[] {
  const out: UsageRow[] = [];
  let seed = 7;
  const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const days = ["2026-11-01", "2026-11-02", "", "2026-10-30"];
  const models = ["model-a", "", "mod\u{1F600}l \ud800 lone", "model-b"];
  for (let i = 0; i < 300; i++) {
    const folder = ["/s/--home-a--", "/s/--home-b--", "/custom"][i % 3];
    const usage =
      i % 17 === 0
        ? undefined
        : Array.from({ length: i % 4 }, (_, j) => slice(days[(i + j) % 4], models[(i * j) % 4], i, rnd() * 0.1));
    out.push({
      path: `${folder}/2026-11-01T00-00-00-000Z_${i}.jsonl`,
      cwd: i % 5 ? `/home/${"ab"[i % 2]}` : "",
      usage,
    });
  }
  return out;
}

describe("usage columns", () => {
  it("give every question the same report, to the last bit, as the rows they were made of", () => {
    const made = rows();
    const cols = decodeUsageColumns(encodeUsageColumns(made))!;
    expect(cols.sessions).toBe(made.length);
    for (const by of USAGE_BYS)
      for (const since of [undefined, "2026-11-01", "2026-11-02", "2027-01-01"]) {
        expect(aggregateUsage(cols.rows(), by, { since })).toEqual(aggregateUsage(made, by, { since }));
        for (const cwd of ["/home/a", "/home/b", "/elsewhere"]) {
          const want = aggregateUsage(made.filter(cwdScope("/s", cwd)), by, { since });
          expect(aggregateUsage(cols.rows(cwdScopeByFolder("/s", cwd)), by, { since })).toEqual(want);
        }
      }
    // A session without usage stays one (counted as pending), not one with none recorded.
    expect([...cols.rows()].filter((r) => r.usage === undefined).length).toBe(made.filter((r) => !r.usage).length);
  });

  it("are refused when cut short, lengthened or of another format, rather than read wrongly", () => {
    const bytes = Buffer.from(encodeUsageColumns(rows()));
    expect(decodeUsageColumns(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
    expect(decodeUsageColumns(Buffer.concat([bytes, Buffer.alloc(8)]))).toBeUndefined();
    expect(decodeUsageColumns(bytes.subarray(0, 3))).toBeUndefined();
    const other = Buffer.from(bytes);
    other.write('{"v":2', 4);
    expect(decodeUsageColumns(other)).toBeUndefined();
    // A place out of its table (the first session's folder).
    const head = bytes.readUInt32LE(0);
    const wrong = Buffer.from(bytes);
    wrong.writeInt32LE(99, 4 + head);
    expect(decodeUsageColumns(wrong)).toBeUndefined();
    // Counts that do not add up to the slices, the length kept: the last session said to have one more.
    const counts = Buffer.from(bytes);
    const last = 4 + head + (rows().length - 1) * 12 + 8;
    counts.writeInt32LE(counts.readInt32LE(last) + 1, last);
    expect(decodeUsageColumns(counts)).toBeUndefined();
    // A cwd out of its table, a count below -1.
    const cwd = Buffer.from(bytes);
    cwd.writeInt32LE(1 << 20, 4 + head + 4);
    expect(decodeUsageColumns(cwd)).toBeUndefined();
    const below = Buffer.from(bytes);
    below.writeInt32LE(-2, 4 + head + 8);
    expect(decodeUsageColumns(below)).toBeUndefined();
    // A head that says fewer sessions than none, its length stretched to keep the sizes adding up.
    const parsed = JSON.parse(bytes.subarray(4, 4 + head).toString());
    const none = Buffer.from(JSON.stringify({ ...parsed, n: -1, m: 0 }));
    const negative = Buffer.alloc(4 + none.length);
    negative.writeUInt32LE(none.length + 12, 0);
    none.copy(negative, 4);
    expect(decodeUsageColumns(negative)).toBeUndefined();
    // Read at an odd offset, as a kept answer's bytes are (after its header line).
    const odd = Buffer.concat([Buffer.from("x"), bytes]).subarray(1);
    expect(decodeUsageColumns(odd)).toBeDefined();
  });
});
