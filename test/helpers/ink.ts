import { cleanup, render } from "ink-testing-library";
import { act, createElement, type ReactElement } from "react";
import { App, type AppProps } from "../../components/app/App.js";
import type { BrowserDeps, ScanFn } from "../../components/app/deps.js";
import type { PreviewTail } from "../../components/preview/types.js";
import type { Outcome } from "../../src/browser/app/effects.js";
import { initialState } from "../../src/browser/app/appReducer.js";
import type { Keymap } from "../../src/browser/keys/keymap.js";
import type { SessionSummary } from "../../src/model/types.js";
import type { ScanHandlers } from "../../src/scan/scan-store.js";

export type Rendered = ReturnType<typeof render>;

/** render() inside act(), so effects (useInput's subscription) are in place before any key. */
export async function renderInk(tree: ReactElement): Promise<Rendered> {
  let r!: Rendered;
  await act(async () => {
    r = render(tree);
  });
  return r;
}

/** Unmount everything rendered, inside act() (use as afterEach(cleanupInk)). */
export async function cleanupInk(): Promise<void> {
  await act(async () => {
    cleanup();
  });
}

/** Ink holds a lone ESC this long to tell the Esc key from the start of a sequence. */
const ESC_WAIT_MS = 25;

/** Send keys one write each, each inside act(): "send input, wait for frame". */
export async function press(r: Rendered, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    await act(async () => {
      r.stdin.write(k);
    });
    if (k === "\x1b") await settle(ESC_WAIT_MS);
  }
}

/** Type text one character per write (one write of "abc" arrives as a paste). */
export async function typeText(r: Rendered, text: string): Promise<void> {
  await press(r, ...Array.from(text));
}

/** Let timers and promises run (throttled scan batches, debounced preview loads). */
export async function settle(ms = 0): Promise<void> {
  await act(async () => {
    await new Promise((done) => setTimeout(done, ms));
  });
}

/** Poll until the frame satisfies `check`; fails with the last frame. */
export async function waitForFrame(r: Rendered, check: (frame: string) => boolean, timeoutMs = 2000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const f = r.lastFrame() ?? "";
    if (check(f)) return f;
    if (Date.now() > until) throw new Error(`frame never matched:\n${f}`);
    await settle(10);
  }
}

/** ink-testing-library's stdout has no rows; give it a size and tell the app. */
export async function resize(r: Rendered, columns: number, rows: number): Promise<void> {
  await act(async () => {
    Object.defineProperty(r.stdout, "columns", { value: columns, configurable: true });
    Object.defineProperty(r.stdout, "rows", { value: rows, configurable: true });
    r.stdout.emit("resize");
  });
}

/** A scan that reports the given sessions as probes-free summaries, then completes. */
export function fakeScan(sessions: SessionSummary[]): ScanFn {
  return async (_dir, h?: ScanHandlers) => {
    h?.onDiscovered?.(sessions.length);
    h?.onSummaries?.(sessions);
    return { sessions, diagnostics: [] };
  };
}

/** A scan driven by the test: call the handlers, then finish(). */
export function manualScan() {
  let handlers: ScanHandlers = {};
  let finish!: (sessions: SessionSummary[]) => void;
  const scan: ScanFn = (_dir, h) => {
    handlers = h ?? {};
    return new Promise((done) => {
      finish = (sessions) => done({ sessions, diagnostics: [] });
    });
  };
  return { scan, handlers: () => handlers, finish: (s: SessionSummary[]) => finish(s) };
}

export interface AppHarness {
  r: Rendered;
  exits: Outcome[];
  previewLoads: string[];
}

/** The whole browser on fake deps. */
export async function renderApp(
  o: Partial<Omit<AppProps, "deps" | "onExit" | "initial">> & {
    /** Starting in all folders, with this key map (what the launcher would give the first state). */
    all?: boolean;
    keymap?: Keymap;
    sessions?: SessionSummary[];
    deps?: Partial<BrowserDeps>;
    preview?: (path: string) => PreviewTail;
  } = {},
): Promise<AppHarness> {
  const exits: Outcome[] = [];
  const previewLoads: string[] = [];
  const deps: BrowserDeps = {
    scan: fakeScan(o.sessions ?? []),
    loadPreview: async (path) => {
      previewLoads.push(path);
      return o.preview?.(path) ?? { entries: [], pathLength: 0 };
    },
    cwdExists: () => true,
    ...o.deps,
  };
  const storeDir = o.storeDir ?? "/store";
  const launchCwd = o.launchCwd ?? "/home/u/proj";
  const print = o.print ?? false;
  const props: AppProps = {
    storeDir,
    storeLabel: o.storeLabel ?? "~/.pi/agent/sessions",
    launchCwd,
    print,
    deps,
    onExit: (x) => exits.push(x),
    initial: initialState({ launchCwd, storeDir, all: o.all ?? false, print, keymap: o.keymap }),
  };
  const r = await renderInk(createElement(App, props));
  await settle();
  return { r, exits, previewLoads };
}
