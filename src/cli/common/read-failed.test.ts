import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../model/types.js";
import { readFailedSinceDiscovery } from "./read-failed.js";

describe("readFailedSinceDiscovery", () => {
  const discovered: Diagnostic = { path: "/s/a.jsonl", kind: "unreadable", reason: "ENOENT" };
  const found = { diagnostics: [discovered] };

  it("is false for what discovery found (its fingerprint holds it) and for files read but not sessions", () => {
    const damaged: Diagnostic = { path: "/s/b.jsonl", kind: "not-a-session", reason: "no header" };
    expect(readFailedSinceDiscovery(found, [discovered, damaged])).toBe(false);
    expect(readFailedSinceDiscovery(found, [])).toBe(false);
  });

  it("is true for a file the scan could not read, even one discovery also named", () => {
    const eio: Diagnostic = { path: "/s/c.jsonl", kind: "unreadable", reason: "cannot read (EIO)" };
    expect(readFailedSinceDiscovery(found, [discovered, eio])).toBe(true);
    expect(readFailedSinceDiscovery(found, [{ ...discovered }])).toBe(true);
  });
});
