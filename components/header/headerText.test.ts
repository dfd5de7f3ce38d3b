import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/text/sanitize.js";
import { headerText } from "./headerText.js";

const scan = { discovered: 8, probed: 8, scanned: 6, diagnostics: 0, done: true };
const base = {
  storeLabel: "/tmp/pi-sessions-demo-abc123/sessions (a copy of the demo store: changes stay there)",
  scope: "all" as const,
  shown: 6,
  total: 6,
  sort: "recent" as const,
  scan,
};

describe("headerText", () => {
  it("drops the label's explanation before the store path, and keeps the path's end", () => {
    expect(headerText(base, 200)).toContain("(a copy of the demo store: changes stay there)");
    const at80 = headerText(base, 80);
    expect(at80).toContain("/sessions");
    expect(at80).not.toContain("a copy of");
    // Narrower, the facts say less before anything is cut mid-word.
    expect(headerText(base, 60)).toMatch(/…[^ ]*\/sessions · all · \d+\/\d+ · recent ↓$/);
  });
  it("says when files were skipped", () => {
    expect(headerText({ ...base, scan: { ...scan, diagnostics: 2 } }, 200)).toContain("2 files skipped");
    expect(headerText({ ...base, scan: { ...scan, diagnostics: 1 } }, 200)).toContain("1 file skipped");
    // At 80 columns the count stays whole (QA: "2 fil…").
    const at80 = headerText({ ...base, shown: 2004, total: 2004, scan: { ...scan, diagnostics: 2 } }, 80);
    expect(at80).toMatch(/ · 2 skipped$/);
    expect(displayWidth(at80)).toBeLessThanOrEqual(80);
  });
});

describe("the sort's direction", () => {
  it("reads ↓ for newest / most / largest first and ↑ for names", () => {
    expect(headerText({ ...base, sort: "created" }, 200)).toContain("sort: created ↓");
    expect(headerText({ ...base, sort: "name" }, 200)).toContain("sort: name ↑");
  });
});
