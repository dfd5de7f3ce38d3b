import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileCacheDir } from "./cache-dir.js";
import { nodeTooOld } from "./node-version.js";
import { isSubcommand } from "./subcommand.js";

describe("isSubcommand", () => {
  it("is any first word that is no option; none, or an option, opens the browser", () => {
    for (const a of ["list", "search", "help", "bogus"]) expect(isSubcommand(a), a).toBe(true);
    for (const a of [undefined, "--all", "-a", "--print", "-h", "--version", "-"])
      expect(isSubcommand(a), a).toBe(false);
  });
});

describe("nodeTooOld", () => {
  it("accepts pi's floor and anything newer", () => {
    for (const v of ["v22.19.0", "v22.23.3", "v23.0.0", "v26.10.0"]) expect(nodeTooOld(v)).toBeUndefined();
  });
  it("names the floor and the running version for anything older", () => {
    for (const v of ["v22.18.9", "v20.20.2", "v18.0.0"])
      expect(nodeTooOld(v)).toMatch(new RegExp(`needs Node\\.js 22\\.19 .*${v.replace(/\./g, "\\.")}`));
  });
});

describe("compileCacheDir", () => {
  it("is off with PI_SESSIONS_CODE_CACHE=0 and without a home", () => {
    expect(compileCacheDir({ PI_SESSIONS_CODE_CACHE: "0" }, "/h", "linux")).toBeUndefined();
    expect(compileCacheDir({}, "", "linux")).toBeUndefined();
  });
  it("follows the override, then the platform's per-user cache folder", () => {
    expect(compileCacheDir({ PI_SESSIONS_CACHE_DIR: "/c" }, "/h", "linux")).toBe("/c");
    expect(compileCacheDir({ XDG_CACHE_HOME: "/x" }, "/h", "linux")).toBe(join("/x", "pi-sessions"));
    expect(compileCacheDir({}, "/h", "linux")).toBe(join("/h", ".cache", "pi-sessions"));
    expect(compileCacheDir({}, "/h", "darwin")).toBe(join("/h", "Library", "Caches", "pi-sessions"));
    expect(compileCacheDir({ LOCALAPPDATA: "C:\\L" }, "/h", "win32")).toBe(join("C:\\L", "pi-sessions"));
  });
  it("ignores a relative XDG_CACHE_HOME, as the XDG spec says (it would land where the command runs)", () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: "cache" }, "/h", "linux")).toBe(join("/h", ".cache", "pi-sessions"));
    expect(compileCacheDir({ XDG_CACHE_HOME: "./c" }, "", "linux")).toBeUndefined();
  });
});
