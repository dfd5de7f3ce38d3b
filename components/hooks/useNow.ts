import { useEffect, useState } from "react";

/** Wall clock for "5m ago" columns, ticking rarely: every tick re-renders the frame. */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    t.unref?.();
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
