import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPiKeybindings, piKeybindingsPath } from "./piKeybindings.js";

describe("pi's keybindings.json on disk", () => {
  it("lives in pi's agent folder: $PI_CODING_AGENT_DIR, else ~/.pi/agent", () => {
    expect(piKeybindingsPath({}, "/home/u", "/w")).toBe("/home/u/.pi/agent/keybindings.json");
    expect(piKeybindingsPath({ PI_CODING_AGENT_DIR: "~/pi" }, "/home/u", "/w")).toBe("/home/u/pi/keybindings.json");
    expect(piKeybindingsPath({ PI_CODING_AGENT_DIR: "rel" }, "/home/u", "/w")).toBe("/w/rel/keybindings.json");
  });
  it("no file is no bindings and no warning; an unreadable one is one warning", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-kb-"));
    expect(loadPiKeybindings(join(dir, "keybindings.json"))).toEqual({ bindings: {} });
    const file = join(dir, "keybindings.json");
    writeFileSync(file, '\uFEFF{"app.session.delete": ["ctrl+e"]}');
    expect(loadPiKeybindings(file)).toEqual({ bindings: { "app.session.delete": ["ctrl+e"] } });
    const sub = join(dir, "folder");
    mkdirSync(join(sub, "keybindings.json"), { recursive: true });
    expect(loadPiKeybindings(join(sub, "keybindings.json")).warning).toMatch(/cannot be read \(EISDIR\)/);
    if (process.getuid?.() !== 0) {
      chmodSync(file, 0);
      expect(loadPiKeybindings(file).warning).toMatch(/cannot be read/);
    }
  });
});
