import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { NOW, RECORDS } from "../../test/helpers/trash-records.js";
import { TrashRow } from "./TrashRow.js";

describe("TrashRow", () => {
  it("marks the selected row with ❯ and leaves the others unmarked", () => {
    const sel = render(<TrashRow record={RECORDS[0]} width={70} selected now={NOW} />).lastFrame();
    const not = render(<TrashRow record={RECORDS[0]} width={70} selected={false} now={NOW} />).lastFrame();
    expect(sel).toMatchInlineSnapshot(`"❯ fix the flaky parser test                           1h ago     47 KB"`);
    expect(not!.startsWith("  fix the flaky parser test")).toBe(true);
  });
});
