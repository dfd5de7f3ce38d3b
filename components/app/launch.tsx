import { existsSync, statSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import { resolve } from "node:path";
import { FullScreenBox } from "fullscreen-ink";
import { render } from "ink";
import { scanInWorker } from "../../src/scan/scan-in-worker.js";
import { storeSearch } from "../../src/index/store-search.js";
import { watchStore } from "../../src/store/watch-store.js";
import { loadPreviewTail } from "../preview/loadPreviewTail.js";
import type { Outcome } from "../../src/browser/app/effects.js";
import type { AfterPi, Config } from "../../src/config/config.js";
import { browserStart, type StartOptions } from "../../src/browser/app/browserStart.js";
import { carriedFrom, comesBack, startAfterPi } from "../../src/browser/app/afterPi.js";
import type { AppState } from "../../src/browser/app/appState.js";
import type { Keymap } from "../../src/browser/keys/keymap.js";
import type { FullTextFn } from "../../src/search/fulltext.js";
import { drawSeededScreen, type FirstScreen } from "./firstScreen.js";
import { sameShownRows, shownRows } from "./shownRows.js";
import { initialState, refresh } from "../../src/browser/app/appReducer.js";
import type { ListedSession } from "../../src/browser/list/sessions.js";
import type { RemoteHosts } from "../../src/remote/browser-hosts.js";
import { seedScan } from "../../src/browser/app/scanSeed.js";
import { App } from "./App.js";
import { trace, tracing } from "../../src/launcher/trace.js";
import { type EarlyScan, startEarlyScan } from "../../src/scan/early-scan.js";
import type { BrowserDeps } from "./deps.js";
import { newSessionArgs, piArgs, piCommandProblem, type PiRun, spawnPi, splitCommand } from "../../src/pi/spawn-pi.js";
import { osc52 } from "../../src/text/osc52.js";
import { sanitizeLine } from "../../src/text/sanitize.js";
import { KeyStream } from "../../src/browser/keys/keyStream.js";
import { clearingFirstWrite } from "../../src/tty/clear-first-write.js";
import {
  afterResize,
  CLEAR_SCREEN,
  enterFullScreen,
  holdKeyboard,
  openTerminalOut,
  releaseStdin,
  suspendToShell,
  type TerminalOut,
} from "../../src/tty/terminal.js";

export interface BrowserOptions {
  storeDir: string;
  storeLabel: string;
  cwd: string;
  all: boolean;
  print: boolean;
  piCommand: string;
  /** User settings (src/config); defaults when absent. */
  config?: Config;
  /** Picker for the pi extension: write the chosen path here instead of stdout. */
  resultFile?: string;
  /** The session open in the launching pi: marked, and never deleted. */
  current?: string;
  /** Start with this search. */
  query?: string;
  /** A scan already under way (started before the UI loaded); a fresh worker scan otherwise. */
  early?: EarlyScan;
  /** Called once the first frame is on the screen. */
  onFirstFrame?: () => void;
  /** Problems found in the config file: shown in the status line at start, too. */
  configWarnings?: string[];
  /** The first screen already drawn before Ink loaded (firstScreen.ts): its rows and its terminal restore. */
  first?: FirstScreen;
  /** After a pi started from the browser exits: end (default: the config's), or come back. */
  afterPi?: AfterPi;
  /** Other machines whose sessions are listed too (`ssh NAME`; src/remote), already connecting; closed when the browser ends. */
  remote?: RemoteHosts;
  /** The list opens on every host's sessions (--host). */
  hostsFirst?: boolean;
}

/*
 * Ink 8 writes only the changed rows of a frame (a held j sends two list rows and the
 * preview's facts). PI_SESSIONS_INCREMENTAL=0 redraws whole frames, to compare.
 */
const INCREMENTAL = process.env.PI_SESSIONS_INCREMENTAL !== "0";

/** Longest the first frame waits for the early scan's first rows. */
const FIRST_ROWS_WAIT_MS = 100;

const isDir = (p: string) => {
  try {
    return existsSync(p) && statSync(p).isDirectory();
  } catch {
    return false;
  }
};

export const realDeps: BrowserDeps = {
  scan: scanInWorker,
  loadPreview: (p) => loadPreviewTail(p),
  cwdExists: isDir,
  watch: (dir, known, onChanges) => watchStore(dir, known, onChanges),
};

/** The state with these rows of other machines in its list. */
function withRows(s: AppState, rows: readonly ListedSession[]): AppState {
  const sessions = new Map(s.sessions);
  for (const r of rows) sessions.set(r.path, r);
  return refresh({ ...s, sessions });
}

function writeStdout(text: string): Promise<void> {
  return new Promise((done) => process.stdout.write(text, () => done()));
}

/** One run of the browser: what it starts from (the launch, or where the user was before pi). */
interface Run {
  start: StartOptions;
  all: boolean;
  early?: EarlyScan;
  first?: FirstScreen;
  /** The launch's first frame only: a run back from pi is no launch. */
  onFirstFrame?: () => void;
}

/** How a run ended: an exit status already (a signal), or how the user left and the state they left. */
type Ended = { code: number } | { outcome: Outcome; last?: AppState };

/**
 * The hardened launcher (ink-notes §7): refuses without a terminal, draws in the
 * alternate screen, restores the terminal on every way out, then acts on the outcome
 * with the terminal already back to normal. With "afterPi": "return", the browser starts
 * again once the pi it started has exited (afterPi.ts decides), on the same terminal.
 */
export async function runBrowser(opts: BrowserOptions): Promise<number> {
  if (!process.stdin.isTTY) {
    // The hosts started connecting before this was known: stopped, or they would keep the program open.
    opts.remote?.close();
    process.stderr.write(
      "pi-sessions: the browser needs an interactive terminal on stdin.\nFor scripts use `pi-sessions list` (or `pi-sessions list --json`).\n",
    );
    return 2;
  }
  const term = openTerminalOut(opts.print);
  if (!term) {
    opts.remote?.close();
    process.stderr.write(
      "pi-sessions: no terminal to draw on (stdout, /dev/tty and stderr are not terminals).\nFor scripts use `pi-sessions list`.\n",
    );
    return 2;
  }

  const { keymap, warnings, start } = browserStart(opts);
  // A warning can quote the settings file (an unknown key): screen text, sanitized.
  for (const w of warnings) process.stderr.write(`pi-sessions: ${sanitizeLine(w)}\n`);
  // One index connection for every run (each run would open another).
  const fullText = storeSearch(opts.storeDir);
  const afterPi = opts.afterPi ?? opts.config?.afterPi ?? "exit";

  // Other machines: their kept rows at once, their live answers as they come, for every run.
  const remote = opts.remote;
  try {
    return await browseAndRun(opts, term, keymap, fullText, afterPi, start, remote);
  } finally {
    remote?.close();
  }
}

async function browseAndRun(
  opts: BrowserOptions,
  firstTerm: TerminalOut,
  keymap: Keymap,
  fullText: FullTextFn,
  afterPi: AfterPi,
  start: StartOptions,
  remote: RemoteHosts | undefined,
): Promise<number> {
  let term = firstTerm;
  let run: Run = {
    start: opts.hostsFirst && remote ? { ...start, scope: "hosts" } : start,
    all: opts.all,
    early: opts.early,
    first: opts.first,
    onFirstFrame: opts.onFirstFrame,
  };
  for (;;) {
    const ended = await browse(opts, run, term, keymap, fullText, remote);
    if ("code" in ended) return ended.code;
    const o = ended.outcome;
    let pi: PiRun;
    switch (o.kind) {
      case "quit":
        // fzf's convention: a cancelled pick is 130 and prints nothing; Ctrl+C is 130 anywhere.
        return opts.print || o.interrupted ? 130 : 0;
      case "print": {
        // A host's session is named as scp names it: HOST:PATH.
        const picked = remote?.printName(o.path) ?? resolve(o.path);
        // From the pi extension the choice goes to a file: stdout belongs to pi's TUI.
        if (opts.resultFile) writeFileSync(opts.resultFile, picked + "\n");
        // To a terminal the path is screen text (a file name may hold escapes); to a pipe, exact.
        else await writeStdout((process.stdout.isTTY ? sanitizeLine(picked) : picked) + "\n");
        return 0;
      }
      case "resume":
        if (o.note) process.stderr.write(`pi-sessions: ${sanitizeLine(o.note)}\n`);
        // A host's session: pi runs there, in its folder (ssh -t HOST 'cd … && pi --session …').
        pi = remote?.owns(o.path)
          ? await remote.resume(o.path, o.cwd)
          : await spawnPi(opts.piCommand, piArgs(resolve(o.path)), o.cwd);
        break;
      case "new":
        pi = await spawnPi(opts.piCommand, newSessionArgs(), o.cwd);
        break;
    }
    // pi there has likely appended to the session: its host is asked again.
    const there = o.kind === "resume" ? remote?.owns(o.path) : undefined;
    if (there) void remote!.refresh(there.host);
    if (!ended.last || !comesBack(afterPi, opts.print, o, pi)) return pi.code;
    const carried = carriedFrom(ended.last, o);
    const all = carried.scope !== "cwd";
    // A fresh scan: pi has likely appended to the session just resumed, and its row is read again.
    run = {
      start: startAfterPi(start, carried, pi),
      all,
      early: startEarlyScan(opts.storeDir, all ? undefined : opts.cwd),
    };
    const next = openTerminalOut(opts.print);
    if (!next) return pi.code;
    term = next;
  }
}

/** How many keys were dropped, told to the UI when it subscribes, whichever comes first. */
function droppedKeys() {
  let count: number | undefined;
  let notify: ((n: number) => void) | undefined;
  return {
    set(n: number) {
      count = n;
      notify?.(n);
    },
    subscribe(f: (n: number) => void) {
      notify = f;
      if (count !== undefined) f(count);
      return () => {
        notify = undefined;
      };
    },
  };
}

/** One run of the browser on `term` (closed when it ends), up to how the user left it. */
async function browse(
  opts: BrowserOptions,
  run: Run,
  term: TerminalOut,
  keymap: Keymap,
  fullText: FullTextFn,
  remote?: RemoteHosts,
): Promise<Ended> {
  // A frame without rows is little use: give the early scan a moment to find some (it is
  // usually done by now), then start the UI with them.
  // Tests only: Ink's first frame put off (below), and the early scan given as long first, so
  // the rows Ink starts from are the files' however loaded the machine.
  const putOff = Number(process.env.PI_SESSIONS_TEST_FIRST_FRAME_DELAY_MS);
  if (putOff > 0) await new Promise((r) => setTimeout(r, putOff));
  if (run.early) await run.early.ready(FIRST_ROWS_WAIT_MS);
  // The first screen drawn before Ink (firstScreen.ts) showed these rows: Ink starts from them too.
  const seed = [...(run.first?.seed ?? []), ...(run.early?.take() ?? [])];
  // Each host's kept rows (or those of the run before pi) are there from the first frame.
  const known = remote?.initial();
  const seeded = seedScan(
    initialState({
      launchCwd: opts.cwd,
      storeDir: opts.storeDir,
      all: run.all,
      print: opts.print,
      piCommand: splitCommand(opts.piCommand),
      keymap,
      ...run.start,
      ...(known ? { hosts: known.hosts } : {}),
    }),
    seed,
  );
  const initial = known?.sessions.length ? withRows(seeded, known.sessions) : seeded;

  let outcome: Outcome = { kind: "quit" };
  let last: AppState | undefined;
  let signalled: NodeJS.Signals | null = null;
  holdKeyboard();
  // Ink reads keys from this: one key per event, however the terminal grouped them.
  const keys = new KeyStream(process.stdin);
  // The index's newest rows drawn before Ink (drawFirstScreenAll) may not be the list's first
  // rows (a session active since the snapshot): keys typed on them would act on rows never
  // shown. Those read before Ink's first frame (which shows the list) are then dropped, and said.
  const size = { columns: term.stream.columns ?? 0, rows: term.stream.rows ?? 0 };
  const dropEarly = !!run.first?.partial && !sameShownRows(run.first.shown, shownRows(initial, size));
  if (dropEarly) keys.dropKeys();
  // Tests only: a key typed on the first screen is surely read before Ink's first frame (a
  // loaded machine otherwise lets the frame come first).
  if (putOff > 0) await new Promise((r) => setTimeout(r, putOff));
  const dropped = droppedKeys();
  const restore = run.first?.restore ?? enterFullScreen(term.fd, { mouse: opts.config?.mouse ?? true });
  // None drawn before Ink loaded (--all, a run back from pi): the rows found by now go on the
  // screen the same way, before Ink's first frame (its first render takes ~70 ms more).
  const drawn =
    (!!run.first && !run.first.partial) ||
    drawSeededScreen(initial, term.stream, { storeLabel: opts.storeLabel, keymap }) ||
    !!run.first;
  let instance: ReturnType<typeof render> | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    signalled ??= sig;
    instance?.unmount();
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const s of signals) process.on(s, onSignal);
  let stopRepaint: (() => void) | undefined;
  // Every row drawn afresh on a cleared screen (after a resize, or back from Ctrl+Z).
  let repaint = () => {};
  // A terminal that vanished without a SIGHUP reaching us (we are not its session leader):
  // its input ends and writes to it fail (EIO). Unhandled, such a write error crashed the
  // program with a stack trace; it ends as a hang-up instead, quietly.
  const onHangUp = () => onSignal("SIGHUP");
  process.stdin.on("end", onHangUp);
  process.stdin.on("error", onHangUp);
  term.stream.on("error", onHangUp);
  try {
    // fullscreen-ink's box: the root takes the size of the terminal Ink draws on.
    const app = (
      <FullScreenBox flexDirection="column">
        <App
          storeDir={opts.storeDir}
          storeLabel={opts.storeLabel}
          launchCwd={opts.cwd}
          print={opts.print}
          deps={{
            ...realDeps,
            ...(run.early ? { scan: run.early.scan } : {}),
            fullText,
            keysPending: () => !keys.idle,
            keysQueued: () => keys.queued,
            ...(dropEarly ? { keysDropped: dropped.subscribe } : {}),
            copy: (text) => void term.stream.write(osc52(text)),
            suspend: () => {
              suspendToShell(term.fd, { mouse: opts.config?.mouse ?? true, redraw: () => repaint() });
              return true;
            },
            ...(opts.print ? {} : { piProblem: () => piCommandProblem(opts.piCommand) }),
            ...(remote ? { remote } : {}),
          }}
          initial={initial}
          onExit={(o, state) => {
            outcome = o;
            last = state;
          }}
        />
      </FullScreenBox>
    );
    repaint = () => {
      if (!instance) return;
      instance.clear();
      term.stream.write(CLEAR_SCREEN);
      instance.rerender(app);
    };
    instance = render(app, {
      // Over rows drawn before Ink: cleared by Ink's first frame (see clearingFirstWrite).
      stdout: drawn ? clearingFirstWrite(term.stream) : term.stream,
      stdin: keys as unknown as NodeJS.ReadStream,
      stderr: process.stderr,
      exitOnCtrlC: false,
      patchConsole: false,
      incrementalRendering: INCREMENTAL,
      maxFps: 60,
      // Both ends are terminals (checked above): draw live whatever CI says.
      interactive: true,
      ...(tracing
        ? { onRender: ({ renderTime }: { renderTime: number }) => trace(`frame (${renderTime.toFixed(0)} ms)`) }
        : {}),
    });
    // After a resize, draw every row afresh on a cleared screen (see afterResize).
    stopRepaint = afterResize(term.stream, () => repaint());
    // Ink draws the first frame inside render(). What the terminal held by then is read in the
    // loop's next poll, which comes before setImmediate's turn: the keys after it count.
    if (dropEarly) setImmediate(() => dropped.set(keys.endDrop()));
    run.onFirstFrame?.();
    await instance.waitUntilExit();
  } finally {
    stopRepaint?.();
    instance?.cleanup();
    restore();
    keys.detach();
    releaseStdin();
    term.close();
    // After a hang-up the handlers stay, as the program is on its way out: a second SIGHUP
    // (the terminal's, then the kernel's when the session leader goes) must not kill it
    // halfway, nor a failed write still to be reported crash it. (Signal handlers keep
    // nothing alive.)
    if (signalled !== "SIGHUP") {
      for (const s of signals) process.off(s, onSignal);
      process.stdin.off("end", onHangUp);
      process.stdin.off("error", onHangUp);
      term.stream.off("error", onHangUp);
    }
  }

  if (signalled) return { code: 128 + (constants.signals[signalled as NodeJS.Signals] ?? 0) };
  return { outcome, last };
}
