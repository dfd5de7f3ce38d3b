import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, renderInk } from "../../test/helpers/ink.js";
import { COMMANDS } from "../../src/browser/keys/commands.js";
import { createKeymap, DEFAULT_KEYMAP } from "../../src/browser/keys/keymap.js";
import { helpLines, type HelpSection } from "../../src/browser/keys/helpLines.js";
import { displayWidth } from "../../src/text/sanitize.js";
import { HelpOverlay } from "./HelpOverlay.js";

afterEach(cleanupInk);

describe("HelpOverlay", () => {
  it("lists every command of the registry when there is room", async () => {
    const r = await renderInk(<HelpOverlay keymap={DEFAULT_KEYMAP} width={100} height={300} top={0} />);
    const f = r.lastFrame()!;
    for (const c of Object.values(COMMANDS)) expect(f).toContain(c.help.slice(0, 30));
    expect(f).toContain("Ctrl+S");
    expect(f).toContain("PgUp");
  });
  it("scrolls and fits a short screen", async () => {
    const r = await renderInk(<HelpOverlay keymap={DEFAULT_KEYMAP} width={80} height={10} top={5} />);
    const f = r.lastFrame()!;
    expect(f.split("\n")).toHaveLength(10);
    expect(f).toContain("↓ for more");
    const end = await renderInk(<HelpOverlay keymap={DEFAULT_KEYMAP} width={80} height={10} top={10_000} />);
    expect(end.lastFrame()).toContain("quit");
  });
  it("shows remapped and unbound keys", () => {
    const t = helpLines(createKeymap({ "list.down": ["n"], "app.quit": [] }), 120)
      .map((l) => l.text)
      .join("\n");
    expect(t).toMatch(/n\s+list\.down\s+move down/);
    expect(t).toMatch(/\(unbound\)\s+app\.quit\s+quit/);
  });
  it("at 80 columns wraps every description whole and leaves the name column out", () => {
    const lines = helpLines(DEFAULT_KEYMAP, 76);
    for (const l of lines) expect(displayWidth(l.text)).toBeLessThanOrEqual(76);
    // No description is cut: each command's words are all there, over one or more lines.
    for (const [id, c] of Object.entries(COMMANDS)) {
      const text = lines
        .filter((l) => l.command === id)
        .map((l) => l.text.trim())
        .join(" ");
      expect(text.replace(/\s+/g, " ")).toContain(c.help.replace(/\s+/g, " "));
      expect(text).not.toContain(` ${id} `);
    }
    expect(lines.filter((l) => l.command && l.text.endsWith("…"))).toEqual([]);
  });

  it("filters to the keys whose words hold the filter, sections without any left out", () => {
    const lines = helpLines(DEFAULT_KEYMAP, 120, undefined, "Page");
    const commands = lines.filter((l) => l.command);
    expect(commands.length).toBeGreaterThan(2);
    for (const l of commands) expect(l.text.toLowerCase()).toContain("page");
    const headings = lines.filter((l) => l.heading).map((l) => l.text);
    expect(headings).toContain("List");
    expect(headings).not.toContain("App");
    const none = helpLines(DEFAULT_KEYMAP, 120, undefined, "zzz-nothing");
    expect(none.filter((l) => l.command)).toEqual([]);
    expect(none.at(-1)!.text).toContain('"zzz-nothing"');
  });

  it("says the filter in its title while it is typed", async () => {
    const r = await renderInk(
      <HelpOverlay keymap={DEFAULT_KEYMAP} width={100} height={12} top={0} filter="page" typing />,
    );
    expect(r.lastFrame()!.split("\n")[1]).toContain("/page▏");
    expect(r.lastFrame()).toContain("page up");
    expect(r.lastFrame()).not.toContain("move up");
  });

  it("puts the section of the screen it was opened from first", () => {
    const headings = (first?: HelpSection) => helpLines(DEFAULT_KEYMAP, 120, first).filter((l) => l.heading);
    expect(headings()[0].text).toBe("List");
    expect(headings("reader")[0].text).toMatch(/^Transcript reader/);
    expect(headings("tree")[0].text).toMatch(/^Branch tree/);
    expect(headings("reader")).toHaveLength(headings().length);
  });

  it('names every command as the config file\'s "keys" takes it', () => {
    const lines = helpLines(DEFAULT_KEYMAP, 120);
    for (const id of Object.keys(COMMANDS)) expect(lines.find((l) => l.command === id)?.text).toContain(` ${id} `);
    expect(lines[0].text).toContain('"keys"');
  });
});
