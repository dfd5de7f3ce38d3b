import type { Key } from "./key.js";
import { describe, expect, it } from "vitest";
import { K } from "../../../test/helpers/keys.js";
import { formatBinding, matches, parseBinding } from "./binding.js";
import type { CommandId, Mode } from "./commands.js";
import { commandFor, createKeymap, DEFAULT_KEYMAP, keysLabel } from "./keymap.js";

const cmd = (mode: Mode, k: readonly [string, Key]) => commandFor(DEFAULT_KEYMAP, mode, k[0], k[1]);

describe("parseBinding", () => {
  it("parses modifiers and named keys", () => {
    expect(parseBinding("ctrl+s")).toEqual({ key: "s", ctrl: true, meta: false, shift: false });
    expect(parseBinding("shift+tab")).toEqual({ key: "tab", ctrl: false, meta: false, shift: true });
    expect(parseBinding("PageUp")).toEqual({ key: "pageup", ctrl: false, meta: false, shift: false });
    expect(parseBinding("alt+backspace")).toMatchObject({ key: "backspace", meta: true });
    expect(parseBinding("G")).toMatchObject({ key: "G", shift: true });
    expect(parseBinding("esc").key).toBe("escape");
    expect(parseBinding("return").key).toBe("enter");
    expect(parseBinding("space").key).toBe(" ");
    expect(parseBinding("+").key).toBe("+");
    expect(parseBinding("ctrl++")).toMatchObject({ key: "+", ctrl: true });
  });
  it("rejects unknown keys and modifiers", () => {
    expect(() => parseBinding("hyper+x")).toThrow(/modifier/);
    expect(() => parseBinding("pgup")).toThrow(/unknown key/);
    expect(() => parseBinding("ctrl+")).toThrow();
  });
  it("formats for display", () => {
    expect(formatBinding(parseBinding("ctrl+s"))).toBe("Ctrl+S");
    expect(formatBinding(parseBinding("shift+tab"))).toBe("Shift+Tab");
    expect(formatBinding(parseBinding("up"))).toBe("↑");
    expect(formatBinding(parseBinding("G"))).toBe("G");
  });
});

describe("matches", () => {
  it("distinguishes tab from shift+tab", () => {
    expect(matches(parseBinding("tab"), ...K.tab)).toBe(true);
    expect(matches(parseBinding("tab"), ...K.shiftTab)).toBe(false);
    expect(matches(parseBinding("shift+tab"), ...K.shiftTab)).toBe(true);
  });
  it("treats ink's delete and backspace flags as backspace", () => {
    expect(matches(parseBinding("backspace"), ...K.backspace)).toBe(true);
    expect(matches(parseBinding("backspace"), ...K.ctrlH)).toBe(true);
    expect(matches(parseBinding("backspace"), ...K.altBackspace)).toBe(false);
  });
  it("matches escape although ink sets meta", () => {
    expect(matches(parseBinding("escape"), ...K.escape)).toBe(true);
  });
  it("does not confuse ctrl or alt letters with plain ones", () => {
    expect(matches(parseBinding("s"), ...K.ctrlS)).toBe(false);
    expect(matches(parseBinding("ctrl+s"), ...K.char("s"))).toBe(false);
    expect(matches(parseBinding("j"), ...K.altJ)).toBe(false);
    expect(matches(parseBinding("g"), ...K.char("G"))).toBe(false);
  });
});

describe("default keys in list mode", () => {
  const positive: [CommandId, readonly [string, Key]][] = [
    ["list.up", K.up],
    ["list.up", K.char("k")],
    ["list.down", K.down],
    ["list.down", K.char("j")],
    ["list.pageUp", K.pageUp],
    ["list.pageDown", K.pageDown],
    ["list.top", K.char("g")],
    ["list.top", K.home],
    ["list.bottom", K.char("G")],
    ["list.bottom", K.end],
    ["search.start", K.char("/")],
    ["scope.toggle", K.tab],
    ["sort.cycle", K.char("s")],
    ["sort.cycle", K.ctrlS],
    ["session.resume", K.enter],
    ["help.open", K.char("?")],
    ["app.quit", K.char("q")],
    ["app.back", K.escape],
    ["app.interrupt", K.ctrlC],
  ];
  it.each(positive)("%s", (id, k) => {
    expect(cmd("list", k)).toBe(id);
  });
  it("ignores unbound keys", () => {
    expect(cmd("list", K.char("z"))).toBeNull();
    expect(cmd("list", K.altJ)).toBeNull();
    expect(cmd("list", K.shiftTab)).toBeNull();
    expect(cmd("list", K.char("S"))).toBeNull();
  });
});

describe("search mode", () => {
  it("leaves letters to the text field", () => {
    for (const c of ["j", "k", "g", "G", "q", "s", "/", "?"]) expect(cmd("search", K.char(c))).toBeNull();
  });
  it("keeps arrows, editing and submit/cancel", () => {
    expect(cmd("search", K.down)).toBe("list.down");
    expect(cmd("search", K.enter)).toBe("search.submit");
    expect(cmd("search", K.escape)).toBe("search.cancel");
    expect(cmd("search", K.backspace)).toBe("input.deleteBack");
    expect(cmd("search", K.altBackspace)).toBe("input.deleteWord");
    expect(cmd("search", K.ctrlW)).toBe("input.deleteWord");
    expect(cmd("search", K.ctrlU)).toBe("input.clear");
    expect(cmd("search", K.ctrlS)).toBe("sort.cycle");
    expect(cmd("search", K.ctrlC)).toBe("app.interrupt");
  });
});

describe("help and dialog modes", () => {
  it("close and cancel", () => {
    expect(cmd("help", K.escape)).toBe("help.back");
    expect(cmd("help", K.char("?"))).toBe("help.close");
    expect(cmd("help", K.char("q"))).toBe("help.close");
    expect(cmd("help", K.enter)).toBeNull();
  });
});

describe("overrides", () => {
  it("replace defaults and [] unbinds", () => {
    const km = createKeymap({ "list.down": ["n"], "app.quit": [] });
    expect(commandFor(km, "list", ...K.char("n"))).toBe("list.down");
    expect(commandFor(km, "list", ...K.char("j"))).toBeNull();
    expect(commandFor(km, "list", ...K.char("q"))).toBeNull();
    expect(keysLabel(km, "list.down")).toBe("n");
    expect(keysLabel(DEFAULT_KEYMAP, "list.down")).toBe("↓/j");
  });
  it("a key the user binds leaves the defaults of other commands", () => {
    const km = createKeymap({ "app.quit": ["x"] });
    expect(commandFor(km, "list", ...K.char("x"))).toBe("app.quit"); // not the action menu
    expect(keysLabel(km, "menu.open")).toBe("");
    expect(commandFor(km, "menu", ...K.char("x"))).toBeNull(); // menu.close lost x too
  });
  it("fail on a bad key", () => {
    expect(() => createKeymap({ "list.down": ["ctrl+nope"] })).toThrow();
  });
});
