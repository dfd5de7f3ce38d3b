import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, renderInk } from "../../test/helpers/ink.js";
import { SkippedView, skippedLines } from "./SkippedView.js";

afterEach(cleanupInk);

const skipped = [
  { path: "/store/--p--/empty.jsonl", kind: "empty" as const, reason: "empty file" },
  {
    path: "/store/--p--/evil\x1b[2J\x1b]0;owned\x07.jsonl",
    kind: "not-a-session" as const,
    reason: "line 1: \x1b[31mred",
  },
];

describe("SkippedView", () => {
  it("lists each skipped file and why, with no escape sequence from a name or a reason", async () => {
    const r = await renderInk(<SkippedView skipped={skipped} width={70} height={12} top={0} closeKey="Esc" />);
    const f = r.lastFrame()!;
    expect(f).toContain("Skipped files (2)");
    expect(f).toContain("/store/--p--/empty.jsonl");
    expect(f).toContain("empty: empty file");
    expect(f).toContain("not-a-session: line 1:");
    expect(f).not.toMatch(/\x1b\[2J|\x1b\]0;|\x07|\x1b\[31m/);
  });
  it("cuts a long path from the left, so the file's name stays", () => {
    const long = [{ path: `/${"deep/".repeat(30)}name.jsonl`, kind: "empty" as const, reason: "empty file" }];
    expect(skippedLines(long, 40)[0]).toMatch(/name\.jsonl$/);
  });
});
