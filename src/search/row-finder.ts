/** Items looked up by a scan of the list before a map of them is made. */
const SCANS = 64;

/**
 * An item that knows its place in the list it was made in (a command's kept rows:
 * src/cli/common/kept-search-row.ts): found there at once when it is still at that place.
 */
export interface Placed {
  readonly place: number;
}

const placeOf = (t: unknown): number => {
  const p = (t as Partial<Placed> | null)?.place;
  return typeof p === "number" ? p : -1;
};

/**
 * An item's place in a list, or -1. An item that says its place (Placed) and is there, at
 * once, or that far from it as the last such item found was (a list made again with a few
 * items put before it: a store that changed, its kept rows sorted again with its changed
 * files); asked in the list's order (a search that ranks every session), the item after the
 * last one found: no map of 50,000 sessions made for it; else by a scan while few are
 * asked (a search that checks the best twenty-odd files), by a map once many are (a group
 * of sessions ranked out of the list's order made one of all 50,000, ~10 ms).
 */
export function rowFinder<T>(rows: readonly T[]): (t: T) => number {
  let at: Map<T, number> | undefined;
  let asked = 0;
  let last = -1;
  let shift = 0;
  const found = (t: T): number => {
    if (rows[last + 1] === t) return last + 1;
    if (last >= 0 && rows[last] === t) return last;
    if (at) return at.get(t) ?? -1;
    if (++asked > SCANS) at = new Map(rows.map((r, i) => [r, i]));
    return at ? (at.get(t) ?? -1) : rows.indexOf(t);
  };
  return (t) => {
    const p = placeOf(t);
    if (p >= 0) {
      if (rows[p] === t) return (last = p);
      if (shift !== 0 && rows[p + shift] === t) return (last = p + shift);
    }
    last = found(t);
    if (p >= 0 && last >= 0) shift = last - p;
    return last;
  };
}
