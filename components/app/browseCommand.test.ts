import { describe, expect, it } from "vitest";
import { tildePath } from "./browseCommand.js";

describe("tildePath", () => {
  it("writes the home folder as ~, only at a folder boundary", () => {
    expect(tildePath("/home/kim/.pi/agent/sessions", "/home/kim")).toBe("~/.pi/agent/sessions");
    expect(tildePath("/home/kim", "/home/kim/")).toBe("~");
    expect(tildePath("/home/kimberly/x", "/home/kim")).toBe("/home/kimberly/x");
    expect(tildePath("/srv/x", undefined)).toBe("/srv/x");
    expect(tildePath("/srv/x", "/")).toBe("/srv/x");
  });
});
