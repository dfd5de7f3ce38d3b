import { describe, expect, it } from "vitest";
import { initialState, update } from "../../src/browser/app/appReducer.js";
import { makeSessions } from "../../test/helpers/sessions.js";
import { seedScan } from "../../src/browser/app/scanSeed.js";
import { settledFirst, viewportFor } from "./settledFirst.js";

describe("the state the browser mounts with", () => {
  const seeded = seedScan(initialState({ launchCwd: "/w" }), [
    { kind: "summaries", items: makeSessions(50, { cwd: "/w" }) },
  ]);
  const size = { columns: 120, rows: 36 };

  it("is as the first effects leave it: said again once it is up, they change nothing (no render, no frame)", () => {
    const first = settledFirst(seeded, size, "/home/u/.local/share/Trash");
    expect(first.pageSize).toBeGreaterThan(10);
    expect(first.trashDir).toBe("/home/u/.local/share/Trash");
    expect(update(first, viewportFor(first, size))[0]).toBe(first);
    expect(update(first, { type: "lifecycle.setup", trashDir: "/home/u/.local/share/Trash" })[0]).toBe(first);
    // A terminal resized since: a new page, as before.
    expect(update(first, viewportFor(first, { columns: 120, rows: 50 }))[0].pageSize).toBeGreaterThan(first.pageSize);
  });

  it("no trash here (null) is known too", () => {
    const first = settledFirst(seeded, size, null);
    expect(update(first, { type: "lifecycle.setup", trashDir: null })[0]).toBe(first);
  });
});
