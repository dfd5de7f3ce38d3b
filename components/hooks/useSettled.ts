import { useEffect, useState } from "react";

/**
 * `value` once it has stayed the same for `delayMs` (at once when there was none yet). For
 * what follows the cursor but costs bytes to redraw, the preview: while ↓ is held it waits for
 * the keys to pause, as lazygit and fzf do, so a held key redraws two list rows, not the pane
 * beside them.
 */
export function useSettled<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  // Nothing shown yet (the first rows just came): shown now, not after a pause.
  const adopt = settled == null && value != null;
  useEffect(() => {
    if (Object.is(value, settled)) return;
    if (settled == null) {
      setSettled(value);
      return;
    }
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, settled, delayMs]);
  return adopt ? value : settled;
}
