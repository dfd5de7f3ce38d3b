import type { Diagnostic } from "../../model/types.js";

/**
 * Whether a scan could not read a file that discovery found (EIO, EMFILE, a file made
 * unreadable since): a failure the store's fingerprint does not hold, so the same
 * fingerprint may read that file next time, and an answer made of this scan (missing that
 * session) is not kept. A problem discovery found is in the fingerprint: it need not stop
 * keeping (`scanned` holds discovery's own diagnostics as discovery made them).
 */
export function readFailedSinceDiscovery(
  found: { diagnostics: readonly Diagnostic[] },
  scanned: readonly Diagnostic[],
): boolean {
  const discovered = new Set(found.diagnostics);
  return scanned.some((d) => d.kind === "unreadable" && !discovered.has(d));
}
