export interface Settler {
  /** Something happened: run once things are quiet, or at the latest maxWaitMs after the first poke since the last run. */
  poke(): void;
  cancel(): void;
}

/**
 * Runs `run` once pokes stop for `quietMs`, as a debounce does, but never later than
 * `maxWaitMs` after the first poke it has not answered yet: under steady pokes (pi
 * appending twenty times a second) a plain debounce would wait for ever. lodash's
 * debounce with maxWait, in short.
 */
export function settler(run: () => void, { quietMs, maxWaitMs }: { quietMs: number; maxWaitMs: number }): Settler {
  let timer: NodeJS.Timeout | undefined;
  let first: number | undefined;
  const fire = () => {
    timer = undefined;
    first = undefined;
    run();
  };
  return {
    poke() {
      const now = Date.now();
      first ??= now;
      if (timer) clearTimeout(timer);
      timer = setTimeout(fire, Math.max(0, Math.min(quietMs, first + maxWaitMs - now)));
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      first = undefined;
    },
  };
}
