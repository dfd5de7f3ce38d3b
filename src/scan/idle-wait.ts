import { performance } from "node:perf_hooks";

/**
 * Calls `done` once this thread has been idle (waiting in its event loop) for `ms` in all,
 * time spent working not counted; returns a function that cancels it. The first frame
 * waits so for the early scan's rows: time the thread spent decoding what the scan sent
 * brought them no nearer to the screen.
 */
export function afterIdle(ms: number, done: () => void): () => void {
  const start = performance.eventLoopUtilization();
  let timer: NodeJS.Timeout;
  const wait = (left: number) => {
    timer = setTimeout(() => {
      const idle = performance.eventLoopUtilization(start).idle;
      // A timer a millisecond early is no reason for another round.
      if (idle < ms - 1) wait(ms - idle);
      else done();
    }, left);
  };
  wait(ms);
  return () => clearTimeout(timer);
}
