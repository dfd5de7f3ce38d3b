// Worker thread entry: runs one store scan and posts its events to the parent
// (src/scan/scan-in-worker.ts), so the scan never competes with the UI for the main thread.
// With an index, the scan reads only files the index does not know as they are, and once
// the list is complete the worker brings the index's text up to date before it ends.
import { parentPort, workerData } from "node:worker_threads";
import { oneLine } from "../index/index-db.js";
import { openStoreIndex } from "../index/store-index.js";
import { dropOrphanText } from "../index/forget.js";
import { indexStaleText } from "../index/text-index.js";
import { scanStore } from "./scan-store.js";
import { scanEventHandlers, type ScanJob, type WorkerMessage } from "./scan-events.js";

const port = parentPort;
if (port) {
  const job = workerData as ScanJob;
  const post = (e: WorkerMessage) => port.postMessage(e);
  const handlers = {
    ...scanEventHandlers(post),
    onKeptRows: (rows: number[], gen: string) => post({ kind: "kept", rows, gen }),
  };
  const index = job.index
    ? openStoreIndex(job.dir, (message) => post({ kind: "notice", message }), { path: job.index })
    : undefined;
  // Written after the list is complete, not before (ScanCache.flush's place in a scan).
  if (index) index.scans.holdSnapshot = true;
  scanStore(
    job.dir,
    handlers,
    // Blocking reads are faster and stall only this thread; the parent stops a scan by
    // terminating the worker, so nothing here needs to stay responsive.
    { concurrency: job.concurrency, probe: job.probe, blocking: true, firstCwd: job.firstCwd, cache: index?.scans },
  )
    .then(async (result) => {
      // The sessions went over as summaries already: only what changed since goes again
      // (scanInWorker puts the list back together), not 10,000 summaries a second time.
      post({ kind: "complete", result: { ...result, sessions: [] } });
      if (!index) return;
      index.scans.writeSnapshot();
      try {
        // Progress at most four times a second: each one redraws the header (bytes over SSH).
        let last = 0;
        // Most FTS rows naming nothing (sessions rewritten or deleted): all the text again (forget.ts).
        dropOrphanText(index.db);
        await indexStaleText(index.db, ({ pass, done, total }) => {
          const now = Date.now();
          if (done < total && now - last < 250) return;
          last = now;
          post({ kind: "indexing", pass, done, total });
        });
      } catch (err) {
        post({ kind: "notice", message: `index text not brought up to date: ${oneLine(err)}` });
      } finally {
        index.close();
      }
    })
    .catch((err: unknown) =>
      post({
        kind: "error",
        message: err instanceof Error ? err.message : String(err),
        code: (err as NodeJS.ErrnoException)?.code,
      }),
    );
}
