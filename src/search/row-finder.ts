/** Items looked up by a scan of the list before a map of them is made. */
const SCANS = 64;

/**
 * An item's place in a list, or -1. Asked in the list's order (a search that ranks every
 * session), the item after the last one found: no map of 50,000 sessions made for it;
 * else by a scan while few are asked (a search that checks the best twenty-odd files), by
 * a map once many are.
 */
export function rowFinder<T>(rows: readonly T[]): (t: T) => number {
  let at: Map<T, number> | undefined;
  let asked = 0;
  let last = -1;
  return (t) => {
    if (rows[last + 1] === t) return ++last;
    if (last >= 0 && rows[last] === t) return last;
    if (at) return (last = at.get(t) ?? -1);
    if (++asked > SCANS) at = new Map(rows.map((r, i) => [r, i]));
    return (last = at ? (at.get(t) ?? -1) : rows.indexOf(t));
  };
}
