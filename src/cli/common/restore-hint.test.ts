import { describe, expect, it } from "vitest";
import { restoreHint } from "./restore-hint.js";

describe("restoreHint", () => {
  const inA = ["/s/a/--p--/one.jsonl", "/s/a/--q--/two.jsonl"];
  it("names the store given as --session-dir", () => {
    expect(restoreHint(inA, { named: "/s/a", found: "/home/u/.pi/agent/sessions" })).toBe(
      "pi-sessions restore --last --session-dir /s/a",
    );
    // Even when the store found without it holds them too: the one the user named.
    expect(restoreHint(inA, { named: "/s/a", found: "/s" })).toBe("pi-sessions restore --last --session-dir /s/a");
  });
  it("is plain when the store found without --session-dir holds them", () => {
    expect(restoreHint(inA, { found: "/s/a" })).toBe("pi-sessions restore --last");
    expect(restoreHint(inA, { named: "/elsewhere", found: "/s/a" })).toBe("pi-sessions restore --last");
  });
  it("else names the folder that holds them all", () => {
    expect(restoreHint(inA, { found: "/other" })).toBe("pi-sessions restore --last --session-dir /s/a");
    expect(restoreHint(["/x/one.jsonl"], {})).toBe("pi-sessions restore --last --session-dir /x");
  });
  it("quotes the folder for a shell and keeps escape sequences off the terminal", () => {
    expect(restoreHint(["/s/my store's/a.jsonl"], { named: "/s/my store's" })).toBe(
      `pi-sessions restore --last --session-dir '/s/my store'\\''s'`,
    );
    const evil = restoreHint(["/s/\x1b]0;pwned\x07x/a.jsonl"], { named: "/s/\x1b]0;pwned\x07x" });
    expect(evil).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(evil.startsWith("pi-sessions restore --last --session-dir '/s/")).toBe(true);
  });
});
