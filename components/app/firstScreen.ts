import type { Config } from "../../src/config/config.js";
import type { AppState } from "../../src/browser/app/appState.js";
import type { Keymap } from "../../src/browser/keys/keymap.js";
import type { ScanEvent } from "../../src/scan/scan-events.js";
import { quickProbe } from "../../src/store/quick-probe.js";
import { newestInSnapshot, type MinRows } from "../../src/scan/snapshot-first.js";
import { indexPathFor, indexWanted } from "../../src/index/index-location.js";
import { initialState } from "../../src/browser/app/appReducer.js";
import { seedScan } from "../../src/browser/app/scanSeed.js";
import { browserStart } from "../../src/browser/app/browserStart.js";
import { preframe } from "./preframe.js";
import { type ShownRows, shownRows } from "./shownRows.js";
import { enterFullScreen, holdKeyboard } from "../../src/tty/terminal.js";

/** A first screen on the terminal before Ink: the rows it showed and how to restore the terminal. */
export interface FirstScreen {
  seed: ScanEvent[];
  restore(): void;
  /** Only the index's newest rows were drawn (drawFirstScreenAll): the list is drawn again once the scan has it. */
  partial?: true;
  /** The rows a partial screen drew: keys typed on them are dropped when Ink's first frame shows others (launch.tsx). */
  shown?: ShownRows;
}

/** What both first screens are drawn from. */
export interface FirstScreenOptions {
  storeDir: string;
  cwd: string;
  storeLabel: string;
  config?: Config;
  current?: string;
}

/**
 * Draws the list of this folder's newest sessions before Ink and React load, when the
 * browser starts on stdout in the default scope and pi's project folder for the cwd holds
 * sessions (probed on this thread in a few milliseconds). Ink then starts from the same
 * rows and draws over them. Undefined (nothing drawn) in any other case.
 */
export async function drawFirstScreen(o: FirstScreenOptions): Promise<FirstScreen | undefined> {
  const out = process.stdout;
  if (!out.isTTY || !process.stdin.isTTY || !out.columns || !out.rows) return undefined;
  const probes = await quickProbe(o.storeDir, o.cwd);
  if (probes.length === 0) return undefined;
  const seed: ScanEvent[] = [{ kind: "probes", items: probes }];
  const { keymap, start } = browserStart({ config: o.config, current: o.current });
  const state = seedScan(initialState({ launchCwd: o.cwd, storeDir: o.storeDir, keymap, ...start }), seed);
  if (state.scope !== "cwd") return undefined;
  const restore = takeScreen(state, out, o, keymap);
  return restore && { seed, restore };
}

/**
 * `state`'s list written to the terminal as the first screen, the keyboard held for Ink
 * (keys typed now wait for it): how to restore the terminal, or undefined when the list
 * screen is not what Ink would draw first (nothing written).
 */
function takeScreen(
  state: AppState,
  out: NodeJS.WriteStream,
  o: Pick<FirstScreenOptions, "storeLabel" | "config">,
  keymap: Keymap,
): (() => void) | undefined {
  const text = preframe(state, {
    columns: out.columns,
    rows: out.rows,
    storeLabel: o.storeLabel,
    keymap,
    now: Date.now(),
  });
  if (!text) return undefined;
  holdKeyboard();
  const restore = enterFullScreen(1, { mouse: o.config?.mouse ?? true });
  out.write(text);
  return restore;
}

/**
 * Sessions a store's index must hold for --all's first screen: out of the record of its newest
 * rows (a few milliseconds at any size), out of its whole snapshot when it has no record
 * (PI_SESSIONS_FIRST_SCREEN_MIN_ROWS sets both; the tests set 0). Below them the whole list is
 * as near, and a key typed at once acts on it rather than being dropped when the list that
 * comes differs from the rows drawn (a session new since the snapshot).
 */
export function firstScreenMinRows(env: NodeJS.ProcessEnv): Required<MinRows> {
  const n = Number(env.PI_SESSIONS_FIRST_SCREEN_MIN_ROWS);
  if (env.PI_SESSIONS_FIRST_SCREEN_MIN_ROWS && Number.isInteger(n) && n >= 0) return { record: n, whole: n };
  return { record: 5_000, whole: 20_000 };
}

/**
 * `--all`'s first screen before Ink loads: the newest sessions of the index's snapshot, each
 * one's file checked (src/scan/snapshot-first.ts), drawn as a scan's first rows ("scanning…"
 * in the header) while the scan worker checks every other file. At 50,000 sessions the whole
 * list is a second or more away (every file stat'ed, 50,000 summaries made); these rows are a
 * few milliseconds of parsing. Nothing of them goes into the state Ink starts from (seed is
 * empty): that is made from the scan alone, so a row that went since is no row there. Only in
 * the list's default order ("recent"; not threaded, named only or searching); undefined (nothing
 * drawn) in any other case, or when the index has no snapshot to trust.
 */
export async function drawFirstScreenAll(o: FirstScreenOptions): Promise<FirstScreen | undefined> {
  const out = process.stdout;
  if (!out.isTTY || !process.stdin.isTTY || !out.columns || !out.rows || !indexWanted()) return undefined;
  const path = indexPathFor(o.storeDir);
  const { keymap, start } = browserStart({ config: o.config, current: o.current });
  const empty = initialState({ launchCwd: o.cwd, storeDir: o.storeDir, all: true, keymap, ...start });
  if (!path || empty.sort !== "recent" || empty.namedOnly || empty.query.terms.length > 0) return undefined;
  // As many rows as the screen can show: the list is shorter than the terminal. At 10,000
  // sessions out of the record: 0.21–0.26 s to the first rows, 0.63–0.72 s without; at 1,000
  // the whole list is drawn by 0.37–0.39 s without it, so small stores go without (firstScreenMinRows).
  // Out of the whole snapshot the whole list came ~100 ms later at 10,000.
  const items = newestInSnapshot(path, out.rows, firstScreenMinRows(process.env));
  if (!items?.length) return undefined;
  const state = seedScan(empty, [{ kind: "summaries", items }]);
  const restore = takeScreen(state, out, o, keymap);
  return (
    restore && { seed: [], restore, partial: true, shown: shownRows(state, { columns: out.columns, rows: out.rows }) }
  );
}

/**
 * The rows of `state` (the seeded state Ink starts from) written the same way just before
 * Ink's first frame, when no first screen was drawn before Ink loaded (--all, a run back
 * from pi): Ink's first render takes ~70 ms more, and with the index the early scan often
 * has the whole list by now. Not for a picker, a search given at start, or with
 * PI_SESSIONS_FIRST_SCREEN=0 (as drawFirstScreen). True when drawn.
 */
export function drawSeededScreen(
  state: AppState,
  out: NodeJS.WriteStream,
  o: { storeLabel: string; keymap: Keymap; env?: NodeJS.ProcessEnv },
): boolean {
  if ((o.env ?? process.env).PI_SESSIONS_FIRST_SCREEN === "0" || state.print) return false;
  if (!out.isTTY || !out.columns || !out.rows) return false;
  const text = preframe(state, {
    columns: out.columns,
    rows: out.rows,
    storeLabel: o.storeLabel,
    keymap: o.keymap,
    now: Date.now(),
  });
  if (!text) return false;
  out.write(text);
  return true;
}
