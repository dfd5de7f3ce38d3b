import { afterEach, describe, expect, it } from "vitest";
import { aggregateUsage } from "../../src/usage/aggregate.js";
import type { UsageSlice } from "../../src/model/types.js";
import { cleanupInk, press, renderApp, renderInk, resize, typeText, waitForFrame } from "../../test/helpers/ink.js";
import { RAW } from "../../test/helpers/keys.js";
import { makeSummary } from "../../test/helpers/sessions.js";
import type { ListRow } from "../../src/browser/list/derive.js";
import { UsageScreen } from "./UsageScreen.js";
import { NEW_USAGE_LAYER } from "../../src/browser/usage/usageState.js";

afterEach(cleanupInk);

const CWD = "/home/u/proj";
const slice = (day: string, model: string, input: number, cost: number): UsageSlice => ({
  day,
  model,
  input,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  cost,
});
const day = (i: number) => `2026-10-${String(i + 1).padStart(2, "0")}`;

/** 30 sessions, one a day (Oct 1–30), each $1 more than the one before; the last ten also used gpt. */
function sessions() {
  return Array.from({ length: 30 }, (_, i) =>
    makeSummary({
      cwd: CWD,
      firstMessage: i % 2 ? `odd ${i}` : `even ${i}`,
      usage: [slice(day(i), "sonnet", 1000 * (i + 1), i + 1), ...(i >= 20 ? [slice(day(i), "gpt", 10, 0.5)] : [])],
    }),
  );
}

const chartLines = (f: string) => f.split("\n").filter((l) => /20\d\d-\d\d-\d\d/.test(l));

describe("the usage view in the browser", () => {
  it("U opens it over the listed sessions; keys switch the grouping and scroll; q goes back", async () => {
    const { r } = await renderApp({ sessions: sessions() });
    await resize(r, 100, 30);
    await press(r, "U");
    let f = await waitForFrame(r, (x) => x.includes("Usage by day"));
    expect(f).toContain("Total $470.00"); // 1 + 2 + … + 30 = 465, and ten times $0.50
    expect(f).toContain("30 of 30 sessions with usage");
    expect(chartLines(f)[0]).toMatch(/2026-10-30 █+.*\$30\.50/);
    const page = chartLines(f).length;
    expect(page).toBeGreaterThan(5);
    expect(page).toBeLessThan(30);
    expect(f).toContain(`1–${page} of 30`);
    await press(r, "j", "j");
    f = r.lastFrame()!;
    expect(chartLines(f)[0]).toContain("2026-10-28");
    await press(r, "G");
    f = r.lastFrame()!;
    expect(chartLines(f).at(-1)).toContain("2026-10-01");
    expect(f).toContain(`${30 - page + 1}–30 of 30`);
    await press(r, "g", "3");
    f = await waitForFrame(r, (x) => x.includes("Usage by model"));
    expect(f).toMatch(/sonnet +█+ +\$465\.00/);
    expect(f).toMatch(/gpt +[▏▎▍▌▋▊▉█]+ +\$5\.00/);
    await press(r, "M");
    f = await waitForFrame(r, (x) => x.includes("bars: tokens"));
    await press(r, RAW.right);
    f = await waitForFrame(r, (x) => x.includes("Usage by day"));
    await press(r, "q");
    f = await waitForFrame(r, (x) => !x.includes("Usage by"));
    expect(f).toContain("this folder · 30/30");
  });

  it("covers only the sessions the search leaves in the list", async () => {
    const { r } = await renderApp({ sessions: sessions() });
    await resize(r, 100, 30);
    await press(r, "/");
    await typeText(r, "even");
    await press(r, RAW.enter, "U");
    const f = await waitForFrame(r, (x) => x.includes("Usage by day"));
    expect(f).toContain("search even");
    // 1 + 3 + … + 29 = 225, plus five times $0.50 for the even sessions 20–28
    expect(f).toContain("Total $227.50");
    expect(f).toContain("15 of 15 sessions");
    expect(chartLines(f)[0]).toContain("2026-10-29");
  });
});

describe("UsageScreen", () => {
  const rows: ListRow[] = sessions().map((session) => ({ session, depth: 0, prefix: "" }));
  it("marks each model by a glyph of its own without colours, and by a coloured square with", async () => {
    const plain = await renderInk(
      <UsageScreen
        rows={rows}
        layer={{ ...NEW_USAGE_LAYER, by: "model" }}
        scope="all"
        search=""
        width={80}
        height={14}
        dispatch={() => {}}
        color={false}
      />,
    );
    const f = plain.lastFrame()!;
    expect(f).toContain("█ sonnet  ▓ gpt");
    expect(f).toMatch(/gpt +▓*[▏▎▍▌▋▊▉] +\$5\.00/);
    const coloured = await renderInk(
      <UsageScreen
        rows={rows}
        layer={{ ...NEW_USAGE_LAYER, by: "model" }}
        scope="all"
        search=""
        width={80}
        height={14}
        dispatch={() => {}}
        color
      />,
    );
    expect(coloured.lastFrame()).toContain("■ sonnet  ■ gpt");
  });
  it("fits its width and height, and tells the reducer how far it scrolls", async () => {
    const seen: unknown[] = [];
    const r = await renderInk(
      <UsageScreen
        rows={rows}
        layer={NEW_USAGE_LAYER}
        scope="cwd"
        search=""
        width={50}
        height={12}
        dispatch={(a) => seen.push(a)}
      />,
    );
    const lines = r.lastFrame()!.split("\n");
    expect(lines).toHaveLength(12);
    // 12 rows: the frame's 2, 4 lines of totals and legend, 6 chart rows
    expect(seen).toEqual([{ type: "usage.view", maxTop: 24, page: 6 }]);
    expect(
      aggregateUsage(
        rows.map((x) => x.session),
        "day",
      ).groups,
    ).toHaveLength(30);
  });
  /** The view alone over `rows`, 60×10. */
  const frame = async (rows: ListRow[]) =>
    (
      await renderInk(
        <UsageScreen
          rows={rows}
          layer={NEW_USAGE_LAYER}
          scope="cwd"
          search=""
          width={60}
          height={10}
          dispatch={() => {}}
        />,
      )
    ).lastFrame()!;
  it("says when there is nothing to show", async () => {
    expect(await frame([])).toContain("no usage recorded in these sessions");
  });
  it("counts its rows in words: 1 day, 2 models (QA: '1 days')", async () => {
    const one = [{ session: sessions()[0], depth: 0, prefix: "" }] as ListRow[];
    expect((await frame(one)).split("\n")[0]).toMatch(/ 1 day ─/);
  });
});
