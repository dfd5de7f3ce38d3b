#!/usr/bin/env node
// Screenshots of every screen: the built program (dist/bundle/cli.js; `npm run build`) in a
// pseudo-terminal on a copy of the demo store, each screen drawn into SVG from the terminal's
// cells (scripts/term-svg.mjs), and into PNG when `rsvg-convert` (Debian's librsvg2-bin) is
// there.
//
//   node scripts/screenshots.mjs [--out DIR] [--only NAME]
//
// Sizes 120×36 and 80×24; themes dark, light and no colour (NO_COLOR). DIR defaults to
// .scratch/screenshots (not committed; docs/screenshots holds the few the README shows).
// CJK and emoji need fonts that have them (Debian: fonts-noto-cjk, fonts-noto-color-emoji),
// or they are drawn as empty boxes: said once when fontconfig finds neither.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchInPty } from "../bench/pty.mjs";
import { missingFontPackages, terminalSvg } from "./term-svg.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist", "bundle", "cli.js");
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const OUT = opt("--out", join(ROOT, ".scratch", "screenshots"));
const ONLY = opt("--only", undefined);

const DOWN = "\x1b[B";
const ESC = "\x1b";
/** Each screen: the keys that reach it from a fresh launch (after the rows are up), and what to wait for. */
const SCREENS = [
  { name: "list", keys: [DOWN], wait: "Preview" },
  { name: "search", keys: ["/", ..."resume"], wait: "resume" },
  { name: "help", keys: ["?"], wait: "Keys" },
  { name: "actions", keys: ["x"], wait: "Actions" },
  { name: "rename", keys: ["r"], wait: "Rename session" },
  { name: "delete", keys: ["d"], wait: "Delete" },
  { name: "tree", keys: [DOWN, DOWN, "t"], wait: "Branch tree" },
  { name: "tree-label", keys: [DOWN, DOWN, "t", "L"], wait: "Label the entry" },
  { name: "usage", keys: ["U"], wait: "Usage by day" },
  // Last: it deletes two sessions (to the work copy's trash) before it opens the trash view.
  { name: "trash", keys: ["d", "y", DOWN, "d", "y", "X"], wait: "Trash ·" },
];
const SIZES = [
  [120, 36],
  [80, 24],
];
const THEMES = ["dark", "light", "none"];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const hasRsvg = spawnSync("rsvg-convert", ["--version"]).status === 0;
if (!hasRsvg) console.error("screenshots: no rsvg-convert (apt-get install librsvg2-bin): writing SVG only");
const missing = missingFontPackages(spawnSync("fc-list", [":", "family"], { encoding: "utf8" }).stdout ?? "");
if (missing.length)
  console.error(`screenshots: CJK or emoji would be empty boxes: apt-get install ${missing.join(" ")}`);

async function shoot(screen, [cols, rows], theme, work) {
  const config = join(work, `config-${theme}.json`);
  writeFileSync(config, JSON.stringify({ theme: theme === "none" ? "dark" : theme }));
  // HOME is the work folder, so the header names the store as a user sees it (~/.pi/agent/sessions).
  const env = {
    CI: undefined,
    NO_COLOR: theme === "none" ? "1" : undefined,
    HOME: work,
    PI_CODING_AGENT_DIR: undefined,
    PI_CODING_AGENT_SESSION_DIR: undefined,
    XDG_CONFIG_HOME: undefined,
  };
  const app = launchInPty(process.execPath, [CLI, "--all", "--config", config], { cols, rows, cwd: work, env });
  try {
    await app.waitFor((s) => /^│?❯ /m.test(s) && !/scanning/.test(s.split("\n")[0]), { timeoutMs: 15_000 });
    for (const k of screen.keys) {
      app.write(k);
      await sleep(k === ESC ? 150 : 60);
    }
    await app.waitFor((s) => s.includes(screen.wait), { timeoutMs: 5_000 });
    // The preview's debounced load (slow on a loaded machine): its "loading…" gone, or 5 s.
    await app.waitFor((s) => !s.includes("loading…"), { timeoutMs: 5_000 }).catch(() => {});
    await sleep(300);
    const base = join(OUT, `${screen.name}-${cols}x${rows}-${theme}`);
    writeFileSync(`${base}.svg`, terminalSvg(app.term, { light: theme === "light" }));
    if (hasRsvg) spawnSync("rsvg-convert", ["-o", `${base}.png`, `${base}.svg`]);
    console.log(`${base}.${hasRsvg ? "png" : "svg"}`);
  } finally {
    app.kill();
  }
}

mkdirSync(OUT, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "pi-sessions-shots-"));
try {
  cpSync(join(ROOT, "fixtures", "pi-generated", "agent", "sessions"), join(work, ".pi", "agent", "sessions"), {
    recursive: true,
  });
  for (const screen of SCREENS.filter((s) => !ONLY || s.name === ONLY))
    for (const size of SIZES) for (const theme of THEMES) await shoot(screen, size, theme, work);
} finally {
  rmSync(work, { recursive: true, force: true });
}
