/*
 * pi may have a session open while its file keeps changing: a file written in the last
 * seconds, by someone other than us, may be pi's. One rule for every write path (rename,
 * label, resume-at-entry, fork's source, delete), in the browser and on the command line.
 */

/** How recent a change must be to count as "pi may have it open". */
export const RECENT_WRITE_MS = 10_000;

/**
 * Whether a file last changed at `mtimeMs` may be open in pi now: it changed in the last
 * RECENT_WRITE_MS and that change was not our own write (whose mtime we remember).
 */
export function mayBeOpenInPi(mtimeMs: number, now: number, ownMtimeMs?: number): boolean {
  return now - mtimeMs < RECENT_WRITE_MS && mtimeMs !== ownMtimeMs;
}

export const OPEN_IN_PI_WARNING = `changed in the last ${RECENT_WRITE_MS / 1000} seconds: pi may have it open`;
