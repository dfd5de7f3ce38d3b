import unicode11 from "@xterm/addon-unicode11";
import xterm from "@xterm/headless";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script with no types
import { missingFontPackages, terminalSvg } from "../scripts/term-svg.mjs";

/*
 * The README's screenshots draw every cell as SVG text: CJK and emoji need fonts that have
 * them (fonts-noto-cjk and fonts-noto-color-emoji), or they are empty boxes.
 */
const term = async (text: string) => {
  const t = new xterm.Terminal({ cols: 20, rows: 2, allowProposedApi: true });
  t.loadAddon(new unicode11.Unicode11Addon());
  t.unicode.activeVersion = "11";
  await new Promise<void>((r) => t.write(text, r));
  return t;
};

describe("screenshot fonts", () => {
  it("the SVG names the monospace font first, then a CJK one, and draws CJK and emoji as characters", async () => {
    const svg = terminalSvg(await term("研究 🚀 42")) as string;
    const family = (/font-family="([^"]*)"/.exec(svg)?.[1] ?? "").split(",").map((f) => f.trim());
    expect(family.slice(0, 2)).toEqual(["DejaVu Sans Mono", "Noto Sans Mono CJK SC"]);
    // Named, the emoji font would take the digits too.
    expect(family).not.toContain("Noto Color Emoji");
    expect(svg).toContain(">研<");
    expect(svg).toContain(">🚀<");
  });

  it("says which packages a machine lacks for them", () => {
    expect(missingFontPackages("DejaVu Sans Mono\n")).toEqual(["fonts-noto-cjk", "fonts-noto-color-emoji"]);
    expect(missingFontPackages("Noto Sans Mono CJK SC\nNoto Color Emoji\n")).toEqual([]);
  });
});
