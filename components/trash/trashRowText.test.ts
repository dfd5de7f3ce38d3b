import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/text/sanitize.js";
import { NOW, RECORDS } from "../../test/helpers/trash-records.js";
import { trashRowText } from "./trashRowText.js";

describe("trashRowText", () => {
  it("title, project folder, when it was deleted and its size, in exactly the width", () => {
    const rows = RECORDS.map((r) => trashRowText(r, 90, NOW));
    expect(rows).toMatchInlineSnapshot(`
      [
        "fix the flaky parser test                                 /home/u/proj    1h ago     47 KB",
        "refactor the store                                     --home-u-proj--    2d ago    2.0 KB",
        "2026-11-01T10-00-00-000Z_s1.jsonl                      --home-u-proj--    3w ago    1.1 MB",
      ]
    `);
    for (const r of rows) expect(displayWidth(r)).toBe(90);
  });

  it("strips escape sequences from the title, and names an untitled session by its file", () => {
    expect(trashRowText(RECORDS[1], 90, NOW)).not.toContain("\x1b");
    expect(trashRowText(RECORDS[2], 90, NOW)).toContain("2026-11-01T10-00-00-000Z_s1.jsonl");
  });

  it("names a host's folder as the list does, the host kept when the path is cut", () => {
    const r = { ...RECORDS[0], host: "devbox", cwd: "/home/someone/projects/a-rather-long-folder-name/deeper/still" };
    const row = trashRowText(r, 90, NOW);
    expect(displayWidth(row)).toBe(90);
    expect(row).toMatch(/ devbox:…\/\S*still /);
    expect(trashRowText({ ...RECORDS[0], host: "devbox" }, 90, NOW)).toContain("devbox:/home/u/proj");
  });

  it("keeps the age and size when narrow, cutting the title first", () => {
    const r = trashRowText(RECORDS[0], 40, NOW);
    expect(displayWidth(r)).toBe(40);
    expect(r).toContain("1h ago");
    expect(r).toContain("47 KB");
    expect(r).toContain("fix the flaky");
  });
});
