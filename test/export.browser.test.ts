// The HTML export in a real browser: headless Chromium (Debian's chromium-headless-shell or
// chromium) parses it, draws it light and dark as the system asks, and runs nothing from
// the session. Skipped, with a note, where no Chromium is installed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { inflateSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { entry, user, writeSession } from "./helpers/session-file.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

function findChromium(): string | undefined {
  for (const name of ["chromium-headless-shell", "chromium", "chromium-browser"]) {
    for (const dir of (process.env.PATH ?? "").split(delimiter)) {
      if (dir && existsSync(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}

const CHROMIUM = findChromium();
if (!CHROMIUM)
  console.warn("export.browser.test: no Chromium found (apt-get install chromium-headless-shell); skipped");

function chromium(args: string[], url: string): string {
  const r = spawnSync(
    CHROMIUM!,
    ["--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars", ...args, url],
    { encoding: "utf8", timeout: 60_000 },
  );
  if (r.status !== 0) throw new Error(`chromium exited ${r.status}: ${r.stderr.slice(-1000)}`);
  return r.stdout;
}

/** The colour of a PNG's top-left pixel: whatever a row's filter, its first pixel is stored as is. */
function topLeftPixel(png: Buffer): [number, number, number] {
  let pos = 8;
  let colorType = -1;
  const idat: Buffer[] = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const type = png.toString("latin1", pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      expect(data[8]).toBe(8); // bit depth
      colorType = data[9];
    } else if (type === "IDAT") idat.push(data);
    pos += 12 + len;
  }
  expect([2, 6]).toContain(colorType); // RGB or RGBA
  const raw = inflateSync(Buffer.concat(idat));
  return [raw[1], raw[2], raw[3]];
}

afterAll(cleanupTmp);

describe.skipIf(!CHROMIUM)("HTML export in headless Chromium", () => {
  const evil = `<script>document.title="pwned"</script><img src=x onerror="document.title='pwned'"> & <b>bold?</b>`;

  async function exportPage(): Promise<string> {
    const s = writeSession([
      user("u1", null, `# Heading\n\n- one\n- two\n\n${evil}`),
      entry("a1", "u1", {
        message: {
          role: "assistant",
          model: "claude-sonnet-4-5",
          stopReason: "toolUse",
          content: [
            { type: "thinking", thinking: "quietly" },
            { type: "text", text: "Answer with `code`.\n\n```ts\nconst x = 1 < 2;\n```" },
            { type: "toolCall", id: "c1", name: "bash", arguments: { command: "npm test" } },
          ],
        },
      }),
      entry("r1", "a1", {
        message: {
          role: "toolResult",
          toolCallId: "c1",
          toolName: "bash",
          content: [{ type: "text", text: `${evil}\nok` }],
          isError: false,
        },
      }),
    ]);
    const out = join(makeTmpDir(), "page.html");
    const r = await runCli(["export", s.path, "-o", out]);
    s.cleanup();
    expect(r.code, r.stderr).toBe(0);
    return out;
  }

  it("parses into the page we wrote: the session's markup is text, nothing of it runs", async () => {
    const page = await exportPage();
    const dom = chromium(["--headless", "--dump-dom"], pathToFileURL(page).href);
    expect(dom).toContain("<h1>");
    expect(dom).toContain("Exported by pi-sessions.");
    expect(dom).toContain('&lt;script&gt;document.title="pwned"&lt;/script&gt;&lt;img src=x');
    expect(dom).not.toMatch(/<script|<img|<b>bold/i);
    expect(dom).not.toContain("<title>pwned");
    expect(dom).toContain("<h4>Heading</h4>");
    expect(dom).toContain("<pre><code>const x = 1 &lt; 2;</code></pre>");
    expect(readFileSync(page, "utf8")).toContain("Content-Security-Policy");
  });

  it("draws light by default and dark when the system prefers dark", async () => {
    const page = pathToFileURL(await exportPage()).href;
    const dir = makeTmpDir();
    const shot = (name: string, extra: string[]) => {
      const file = join(dir, name);
      chromium(["--headless", `--screenshot=${file}`, "--window-size=640,480", ...extra], page);
      return readFileSync(file);
    };
    const light = shot("light.png", []);
    // Blink's preferredColorScheme: 0 = dark, 1 = light.
    const dark = shot("dark.png", ["--blink-settings=preferredColorScheme=0"]);
    expect(topLeftPixel(light)).toEqual([0xff, 0xff, 0xff]);
    expect(topLeftPixel(dark)).toEqual([0x0d, 0x11, 0x17]);
    // More than a blank canvas: the page drew text and boxes.
    expect(light.length).toBeGreaterThan(10_000);
  });
});
