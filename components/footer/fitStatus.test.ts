import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/text/width.js";
import { fitStatus } from "./fitStatus.js";

describe("fitStatus", () => {
  const forked = "forked → 2026-11-26T16-31-22-913Z_019ac0de-7e1f-7c55-b1a3-5f0c8e2d4a11.jsonl · u undoes it";

  it("leaves a message that fits as it is", () => {
    expect(fitStatus("Renamed to x", 20)).toBe("Renamed to x");
  });

  it("cuts the part before the closing hint, never the hint", () => {
    const got = fitStatus(forked, 60);
    expect(got).toBe("forked → 2026-11-26T16-31-22-913Z_019ac0de-7e… · u undoes it");
    expect(displayWidth(got)).toBe(60);
    const moved = fitStatus("Moved 3 sessions to the trash, and 2 labels went with them — u to undo", 40);
    expect(moved).toBe("Moved 3 sessions to the tra… — u to undo");
    expect(displayWidth(moved)).toBe(40);
  });

  it("only the last separator starts the hint", () => {
    expect(fitStatus("nothing to undo in this run · X shows the trash and more · u", 30)).toBe(
      "nothing to undo in this r… · u",
    );
  });

  it("cuts at the end when too narrow for the hint and some of the message", () => {
    expect(fitStatus(forked, 16)).toBe("forked → 2026-1…");
    expect(fitStatus("no hint here, just a long message", 10)).toBe("no hint h…");
  });
});
