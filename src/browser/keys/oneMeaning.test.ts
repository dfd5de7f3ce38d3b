import { describe, expect, it } from "vitest";
import { COMMANDS, type CommandId, type Mode, MODE_COMMANDS } from "./commands.js";

/*
 * The keymap audit (issue 20): on every screen where a key applies it means one thing. Text
 * fields (typing) and dialogs (whose keys are listed on the dialog itself) are left out; the
 * screens are the list, the tree, the reader, the usage view and the help.
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
  if (id === "usage.open") return "usage";
  if (id === "trash.open") return "trash";
  return id;
}

describe("one key, one meaning", () => {
  it("no key means two things on the screens where it applies", () => {
    const seen = new Map<string, Map<string, string[]>>();
    for (const mode of SCREENS) {
      for (const id of MODE_COMMANDS[mode]) {
        for (const key of COMMANDS[id].keys) {
          const byMeaning = seen.get(key) ?? new Map<string, string[]>();
          const where = byMeaning.get(meaning(id, key)) ?? [];
          where.push(`${mode}:${id}`);
          byMeaning.set(meaning(id, key), where);
          seen.set(key, byMeaning);
        }
      }
    }
    const clashes = [...seen]
      .filter(([, m]) => m.size > 1)
      .map(([key, m]) => `${key}: ${[...m.values()].map((w) => w.join(",")).join(" vs ")}`);
    expect(clashes).toEqual([]);
  });

  it("no destructive command sits on a key that pages or moves anywhere", () => {
    const moving = new Set<string>();
    for (const mode of SCREENS)
      for (const id of MODE_COMMANDS[mode])
        if (/\.(up|down|pageUp|pageDown|halfUp|halfDown|top|bottom)$/.test(id))
          for (const k of COMMANDS[id].keys) moving.add(k);
    for (const id of ["session.delete", "session.deletePermanently", "trash.purge"] as const)
      expect(COMMANDS[id].keys.filter((k) => moving.has(k))).toEqual([]);
    // Enter never confirms a delete.
    expect(COMMANDS["confirm.yes"].keys).not.toContain("enter");
  });

  it("the action menu and export are on every screen that has a session", () => {
    for (const mode of ["list", "tree", "reader"] as const) {
      expect(MODE_COMMANDS[mode]).toContain("menu.open");
      expect(MODE_COMMANDS[mode]).toContain("export.open");
    }
  });
});
