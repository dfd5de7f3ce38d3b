import type { AfterPi } from "../../config/config.js";
import type { SortKey } from "../../search/sort.js";
import type { Outcome } from "../core/outcome.js";
import type { Scope } from "../list/derive.js";
import type { AppState } from "./appState.js";
import type { StartOptions } from "./browserStart.js";

/*
 * "afterPi": "return" — lazygit's way after an editor: when the pi the browser started
 * exits, the browser comes back where the user left it. The decisions, pure; the launcher
 * (components/app/launch.tsx) runs pi and starts the browser again.
 */

/** Where the user was when pi started: what the browser starts from when it comes back. */
export interface Carried {
  scope: Scope;
  sort: SortKey;
  query: string;
  searchToolOutput: boolean;
  previewShare: number;
  /** The session to put the cursor on: the one resumed (else the one selected). */
  select?: string;
}

/** How pi ended (spawn-pi.ts): `started` false when it could not be run at all. */
export interface PiExit {
  code: number;
  signal?: string;
  started: boolean;
}

/**
 * Whether the browser comes back after pi: only with "return", only after a pi the browser
 * started (resume, fork, new) actually ran, and never when picking (--print, the pi
 * extension: the choice is printed and the program ends). A pi that could not be started
 * ends the program as before, with its message and status 127; so does a pi ended by a
 * hang-up, as the terminal is gone.
 */
export function comesBack(afterPi: AfterPi, print: boolean, outcome: Outcome, pi: PiExit): boolean {
  const startedPi = outcome.kind === "resume" || outcome.kind === "new";
  return afterPi === "return" && !print && startedPi && pi.started && pi.signal !== "SIGHUP";
}

/** What the browser keeps of its last state across pi (the tree, dialogs and marks are left behind). */
export function carriedFrom(s: AppState, outcome: Outcome): Carried {
  const select = outcome.kind === "resume" ? outcome.path : (s.selectedPath ?? undefined);
  return {
    scope: s.scope,
    sort: s.sort,
    query: s.search.value,
    searchToolOutput: s.fullText.includeTools,
    previewShare: s.previewShare,
    ...(select !== undefined ? { select } : {}),
  };
}

/** The status line back from pi: its exit status when it is not 0 (pi's own messages are gone with its screen). */
export function piExitNotice(pi: PiExit): string | undefined {
  if (pi.signal) return `pi was ended by ${pi.signal} (status ${pi.code})`;
  return pi.code === 0 ? undefined : `pi exited with status ${pi.code}`;
}

/** The start options of the browser that comes back: the first run's, with where the user was. */
export function startAfterPi(first: StartOptions, c: Carried, pi: PiExit): StartOptions {
  const notice = piExitNotice(pi);
  return {
    // The session open in a launching pi stays marked; config warnings were said once already.
    ...(first.openInPi ? { openInPi: first.openInPi } : {}),
    scope: c.scope,
    sort: c.sort,
    ...(c.query ? { query: c.query } : {}),
    searchToolOutput: c.searchToolOutput,
    previewShare: c.previewShare,
    ...(c.select ? { select: c.select } : {}),
    ...(notice ? { notice } : {}),
  };
}
