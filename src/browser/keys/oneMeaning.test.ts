import { describe, expect, it } from "vitest";
import { formatBinding, parseBinding } from "./binding.js";
import { COMMANDS, type CommandId, type Mode, MODE_COMMANDS } from "./commands.js";
import { DEFAULT_KEYMAP } from "./keymap.js";

/*
 * The keymap audit (issue 20): on every screen where a key applies it means one thing. Text
 * fields (typing) and dialogs (whose keys are listed on the dialog itself) are left out; the
 * screens are the list, the tree, the reader, the usage view and the help. pi wins where its
 * screens give a key a meaning: a key pi gives two meanings on two screens (Ctrl+D deletes
 * in /resume and sets the default filter in /tree) keeps both, each from pi's own id.
 */
const SCREENS: Mode[] = ["list", "tree", "reader", "usage", "trash", "help"];

/** Commands that are one meaning on different screens (moving, paging, searching, stepping back…). */
function meaning(id: CommandId, key: string): string {
  // Toggles: the key that opens a view closes it.
  if (key === "U" && (id === "usage.open" || id === "usage.close")) return "usage view";
  if (key === "?" && (id === "help.open" || id === "help.close")) return "help";
  if (key === "X" && (id === "trash.open" || id === "trash.close")) return "trash view";
  // Undelete: the last delete in the list, the selected session in the trash.
  if (id === "session.undo" || id === "trash.restore") return "undelete";
  if (id === "session.deletePermanently" || id === "trash.purge") return "delete for good";
  const [ns, name] = id.split(".") as [string, string];
  if (
    ["list", "tree", "reader", "usage", "trash"].includes(ns) &&
    [
      "up",
      "down",
      "pageUp",
      "pageDown",
      "halfUp",
      "halfDown",
      "top",
      "bottom",
      "previewUp",
      "previewDown",
      "search",
      "nextMatch",
      "prevMatch",
      "prevBranch",
      "nextBranch",
      "original",
    ].includes(name)
  )
    return name;
  if (id === "search.start" || id === "help.filter") return "search";
  // Esc and q step back: out of a search or a screen, and at the list (q only) out of the app.
  if (
    [
      "app.back",
      "app.quit",
      "tree.back",
      "tree.close",
      "reader.back",
      "reader.close",
      "usage.close",
      "trash.close",
      "help.close",
      "help.back",
    ].includes(id)
  )
    return "back";
  if (id === "session.resume" || id === "tree.resume") return "resume";
  // Arrows (and h/l) move left and right: out of or into a branch, a grouping, the tree.
  if (id === "tree.right" || id === "usage.nextBy" || id === "tree.open") return "right";
  if (id === "tree.left" || id === "usage.prevBy") return "left";
  // pi's fold-or-jump keys do what ← and → do in the tree.
  if (id === "tree.foldOrUp") return "left";
  if (id === "tree.unfoldOrDown") return "right";
  // Ctrl+T: tool output on or off (the list's search takes it in; the tree's no-tools filter leaves it out).
  if (key === "Ctrl+T" && (id === "search.toggleTools" || id === "tree.filterNoTools")) return "tools";
  if (id === "tree.copy") return "copy.message";
  if (id === "usage.open") return "usage";
  if (id === "trash.open") return "trash";
  return id;
}

describe("one key, one meaning", () => {
  it("no key means two things on the screens where it applies, but where pi's own screens say so", () => {
    const seen = new Map<string, Map<string, string[]>>();
    /** Keys whose every place comes from a pi id: pi gave them their meaning on each screen. */
    const fromPi = new Map<string, boolean>();
    for (const mode of SCREENS) {
      for (const id of MODE_COMMANDS[mode]) {
        for (const b of DEFAULT_KEYMAP.get(id) ?? []) {
          const key = formatBinding(b);
          const byMeaning = seen.get(key) ?? new Map<string, string[]>();
          const where = byMeaning.get(meaning(id, key)) ?? [];
          where.push(`${mode}:${id}`);
          byMeaning.set(meaning(id, key), where);
          seen.set(key, byMeaning);
          fromPi.set(key, (fromPi.get(key) ?? true) && !!b.pi);
        }
      }
    }
    const clashes = [...seen]
      .filter(([key, m]) => m.size > 1 && !fromPi.get(key))
      .map(([key, m]) => `${key}: ${[...m.values()].map((w) => w.join(",")).join(" vs ")}`);
    expect(clashes).toEqual([]);
    // The one key pi itself gives two meanings on two screens.
    const twice = [...seen].filter(([key, m]) => m.size > 1 && fromPi.get(key)).map(([key]) => key);
    expect(twice).toEqual(["Ctrl+D"]);
    expect([...seen.get("Ctrl+D")!.values()].flat()).toEqual(["list:session.delete", "tree:tree.filterDefault"]);
  });

  it("pi's default keys are the defaults on pi's screens: the list and the picker as /resume, the tree as /tree", () => {
    const k = (id: CommandId) => (DEFAULT_KEYMAP.get(id) ?? []).map(formatBinding);
    const piKey = (s: string) => formatBinding(parseBinding(s));
    const expected: [CommandId, string][] = [
      ["session.delete", "ctrl+d"],
      ["session.rename", "ctrl+r"],
      ["sort.cycle", "ctrl+s"],
      ["list.named", "ctrl+n"],
      ["list.paths", "ctrl+p"],
      ["session.deleteNoninvasive", "ctrl+backspace"],
      ["scope.toggle", "tab"],
      ["tree.filterDefault", "ctrl+d"],
      ["tree.filterNoTools", "ctrl+t"],
      ["tree.filterUserOnly", "ctrl+u"],
      ["tree.filterLabelled", "ctrl+l"],
      ["tree.filterAll", "ctrl+a"],
      ["tree.filter", "ctrl+o"],
      ["tree.filterBack", "shift+ctrl+o"],
      ["tree.label", "shift+l"],
      ["tree.labelTimes", "shift+t"],
      ["tree.foldOrUp", "ctrl+left"],
      ["tree.foldOrUp", "alt+left"],
      ["tree.unfoldOrDown", "ctrl+right"],
      ["tree.unfoldOrDown", "alt+right"],
      ["tree.copy", "ctrl+x"],
      ["tree.resume", "enter"],
      ["tree.back", "escape"],
      ["confirm.delete", "enter"],
      ["confirm.cancel", "escape"],
    ];
    for (const [id, key] of expected) expect(k(id), id).toContain(piKey(key));
    // The picker (search field) has pi's keys too; the list's own half pages gave theirs up.
    for (const id of [
      "session.delete",
      "session.rename",
      "list.named",
      "list.paths",
      "session.deleteNoninvasive",
    ] as const)
      expect(MODE_COMMANDS.search).toContain(id);
    for (const id of [
      "list.halfUp",
      "list.halfDown",
      "tree.halfUp",
      "tree.halfDown",
      "reader.halfUp",
      "reader.halfDown",
    ] as const)
      expect(k(id)).toEqual([]);
  });

  it("nothing pages on Ctrl+D or Ctrl+U on any screen", () => {
    for (const mode of Object.keys(MODE_COMMANDS) as Mode[])
      for (const id of MODE_COMMANDS[mode])
        if (/\.(pageUp|pageDown|halfUp|halfDown|up|down)$/.test(id))
          expect((DEFAULT_KEYMAP.get(id) ?? []).map(formatBinding), `${mode}:${id}`).not.toEqual(
            expect.arrayContaining(["Ctrl+D"]),
          );
    for (const mode of Object.keys(MODE_COMMANDS) as Mode[])
      for (const id of MODE_COMMANDS[mode])
        if (/\.(pageUp|pageDown|halfUp|halfDown)$/.test(id))
          expect((DEFAULT_KEYMAP.get(id) ?? []).map(formatBinding), `${mode}:${id}`).not.toContain("Ctrl+U");
  });

  it("no destructive command sits on a key that pages or moves anywhere", () => {
    const moving = new Set<string>();
    for (const mode of SCREENS)
      for (const id of MODE_COMMANDS[mode])
        if (/\.(up|down|pageUp|pageDown|halfUp|halfDown|top|bottom)$/.test(id))
          for (const k of COMMANDS[id].keys) moving.add(k);
    for (const id of ["session.delete", "session.deletePermanently", "trash.purge"] as const)
      expect(COMMANDS[id].keys.filter((k) => moving.has(k))).toEqual([]);
    // Enter never answers a permanent delete's questions (pi's Enter answers only the trash's).
    for (const id of ["confirm.yes", "confirm.permanent"] as const)
      expect((DEFAULT_KEYMAP.get(id) ?? []).map(formatBinding)).not.toContain("Enter");
  });

  it("the action menu and export are on every screen that has a session", () => {
    for (const mode of ["list", "tree", "reader"] as const) {
      expect(MODE_COMMANDS[mode]).toContain("menu.open");
      expect(MODE_COMMANDS[mode]).toContain("export.open");
    }
  });
});
