import { describe, expect, it } from "vitest";
import { cwdFolderName, cwdScope } from "./scope.js";

describe("cwdScope: pi 1.5.2's list(cwd)", () => {
  const store = "/s";
  const inScope = cwdScope(store, "/home/me/app");
  it("names a project's folder as pi does", () => {
    expect(cwdFolderName("/home/me/app")).toBe("--home-me-app--");
    expect(cwdFolderName("/home/me/./app/")).toBe("--home-me-app--");
  });
  it("default store: the project folder decides, not the header (an /import lands elsewhere)", () => {
    expect(inScope({ path: "/s/--home-me-app--/a.jsonl", cwd: "/elsewhere" })).toBe(true);
    expect(inScope({ path: "/s/--home-me-other--/b.jsonl", cwd: "/home/me/app" })).toBe(false);
  });
  it("custom folder: the header cwd, resolved; an empty cwd belongs nowhere", () => {
    expect(inScope({ path: "/s/c.jsonl", cwd: "/home/me/./app/" })).toBe(true);
    expect(inScope({ path: "/s/c.jsonl", cwd: "/home/me/app2" })).toBe(false);
    expect(inScope({ path: "/s/c.jsonl", cwd: "" })).toBe(false);
  });
  it("a store that is itself the project's folder is all in scope", () => {
    expect(cwdScope("/x/--home-me-app--", "/home/me/app")({ path: "/x/--home-me-app--/d.jsonl", cwd: "/other" })).toBe(
      true,
    );
  });
});
