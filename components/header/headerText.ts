import type { SortKey } from "../../src/search/sort.js";
import { sanitizeLine, truncateStartToWidth, truncateToWidth } from "../../src/text/sanitize.js";
import type { ScanProgress } from "../../src/browser/app/appReducer.js";
import type { Scope } from "../../src/browser/list/derive.js";

export interface HeaderInfo {
  storeLabel: string;
  scope: Scope;
  shown: number;
  total: number;
  sort: SortKey;
  scan: ScanProgress;
  /** Marked sessions (Space), shown when there are any. */
  marked?: number;
}

export function scanText(scan: ScanProgress): string {
  if (scan.error) return `scan failed: ${sanitizeLine(scan.error)}`;
  if (scan.done) return "";
  if (scan.discovered === null) return "scanning…";
  return `scanning ${Math.min(scan.scanned, scan.discovered)}/${scan.discovered}`;
}

/** "pi-sessions  <store>  this folder  12/340  sort: recent  scanning 3/9", the store cut first. */
export function headerText(h: HeaderInfo, width: number): string {
  const scope = h.scope === "cwd" ? "this folder" : "all folders";
  const parts = [scope, `${h.shown}/${h.total}`, `sort: ${h.sort}`];
  if (h.marked) parts.unshift(`${h.marked} marked`);
  const scan = scanText(h.scan);
  if (scan) parts.push(scan);
  const right = parts.join(" · ");
  const lead = "pi-sessions ";
  const storeW = width - lead.length - right.length - 3;
  if (storeW < 8) return truncateToWidth(lead + right, width);
  return truncateToWidth(`${lead}${truncateStartToWidth(sanitizeLine(h.storeLabel), storeW)} · ${right}`, width);
}
