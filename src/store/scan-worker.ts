// Worker thread entry: runs one store scan and posts its events to the parent
// (src/store/scan-in-worker.ts), so the scan never competes with the UI for the main thread.
import { parentPort, workerData } from "node:worker_threads";
import { scanStore } from "./scan-store.js";
import { scanEventHandlers, type ScanEvent, type ScanJob } from "./scan-events.js";

const port = parentPort;
if (port) {
  const job = workerData as ScanJob;
  const post = (e: ScanEvent) => port.postMessage(e);
  scanStore(
    job.dir,
    scanEventHandlers(post),
    // Blocking reads are faster and stall only this thread; the parent stops a scan by
    // terminating the worker, so nothing here needs to stay responsive.
    { concurrency: job.concurrency, probe: job.probe, blocking: true, firstCwd: job.firstCwd },
  ).then(
    (result) => post({ kind: "complete", result }),
    (err: unknown) =>
      post({
        kind: "error",
        message: err instanceof Error ? err.message : String(err),
        code: (err as NodeJS.ErrnoException)?.code,
      }),
  );
}
