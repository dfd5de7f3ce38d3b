import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { RECORDS } from "../../test/helpers/trash-records.js";
import { PurgeDialog, purgeLines } from "./PurgeDialog.js";

/** The dialog's whole frame at question `step`, 80×10. */
const frameAt = (step: 1 | 2) =>
  render(
    <Box width={80} height={10}>
      <PurgeDialog record={RECORDS[0]} step={step} width={80} height={10} />
    </Box>,
  ).lastFrame();

describe("PurgeDialog", () => {
  it("asks twice, the second time saying it cannot be undone; Cancel has the focus both times", () => {
    const one = frameAt(1);
    expect(one).toMatchInlineSnapshot(`
      "
        ╭─ Delete for good ────────────────────────────────────────────────────────╮
        │ Delete "fix the flaky parser test" for good?                             │
        │   …/.pi/agent/sessions/--home-u-proj--/2026-11-03T10-00-00-000Z_s3.jsonl │
        │ 47 KB in the trash; it can no longer be restored afterwards.             │
        │                                                                          │
        │ ▸ Cancel (Enter, Esc, any key)  ·  y go on                               │
        ╰──────────────────────────────────────────────────────────────────────────╯

      "
    `);
    const two = frameAt(2);
    expect(two).toMatchInlineSnapshot(`
      "

           ╭─ Delete for good: last question ──────────────────────────────────╮
           │ Really delete "fix the flaky parser test" for good?               │
           │ This cannot be undone.                                            │
           │                                                                   │
           │ ▸ Cancel (Enter, Esc, y, any key)  ·  Y (capital) delete for good │
           ╰───────────────────────────────────────────────────────────────────╯

      "
    `);
    for (const step of [1, 2] as const) expect(purgeLines(RECORDS[0], step).at(-1)!.text).toMatch(/^▸ Cancel \(Enter/);
  });

  it("shows no escape sequence from a title", () => {
    expect(
      render(
        <Box width={80} height={10}>
          <PurgeDialog record={RECORDS[1]} step={1} width={80} height={10} />
        </Box>,
      ).lastFrame(),
    ).toContain('Delete "refactor the store" for good?');
  });
});
