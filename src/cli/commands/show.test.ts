import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assistant, entry, user, writeSession } from "../../../test/helpers/session-file.js";
import { loadSessionIndex } from "../../store/session-index.js";
import { displayWidth } from "../../text/sanitize.js";
import { showText } from "./show.js";

const PI15 = join(
  import.meta.dirname,
  "../../../fixtures/pi-1.5.2/agent/sessions/--home-kim-pi15-cwds-proj-a--/2026-11-23T07-13-11-107Z_01a20740-67c2-71ab-9d74-15bae0831a01.jsonl",
);

const long = "lorem ipsum dolor sit amet ".repeat(6).trim();
const file = writeSession([
  entry("t1", null, { type: "thinking_level_change", thinkingLevel: "high" }),
  user("u1", "t1", long),
  assistant("a1", "u1", "ok", {
    usage: { input: 60441, output: 9046, cacheRead: 160955, cacheWrite: 0, cost: { total: 1774.0123 } },
  }),
]);
afterAll(() => file.cleanup());

/** The entry rows: after the blank line under the header. */
const entryRows = (text: string) => text.split("\n\n")[1].trimEnd().split("\n");

describe("show as text", () => {
  it("aligns every entry row, thinking_level_change as much as a message", async () => {
    const rows = entryRows(showText(await loadSessionIndex(PI15)));
    expect(rows.some((r) => r.includes("thinking_level_change"))).toBe(true);
    // The text column starts where it starts on the widest kind's row.
    const textStart = (r: string) => displayWidth(r.match(/^[* ] \S+ +\S+ +/)![0]);
    const withText = rows.filter((r) => /^[* ] \S+ +\S+ +\S/.test(r));
    expect(withText.length).toBeGreaterThan(5);
    expect(new Set(withText.map(textStart)).size).toBe(1);
    for (const r of rows) expect(r).toBe(r.trimEnd());
  });

  it("groups the usage digits (the JSON keeps exact numbers)", async () => {
    const text = showText(await loadSessionIndex(file.path));
    expect(text).toContain(
      "usage:    230,442 tokens (in 60,441, out 9,046, cache read 160,955, write 0), $1,774.0123\n",
    );
  });

  it("cuts a row to a terminal's width, never in a pipe", async () => {
    const index = await loadSessionIndex(file.path);
    expect(showText(index)).toContain(long);
    const cut = entryRows(showText(index, 60));
    for (const r of cut) expect(displayWidth(r)).toBeLessThanOrEqual(60);
    expect(cut.find((r) => r.includes("u1"))!.endsWith("…")).toBe(true);
  });
});
