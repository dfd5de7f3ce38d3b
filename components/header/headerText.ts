import type { SortKey } from "../../src/search/sort.js";
import { formatAge, plural } from "../../src/text/format.js";
import type { HostView } from "../../src/browser/list/hosts.js";
import { displayWidth, sanitizeLine, truncateStartToWidth, truncateToWidth } from "../../src/text/sanitize.js";
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
  /** The key that shows the skipped files, said beside their count. */
  skippedKey?: string;
  /** pi's named-only filter is on (Ctrl+N). */
  namedOnly?: boolean;
  /** Other machines listed too: each one's state (src/remote). */
  hosts?: readonly HostView[];
}

/**
 * A host as the header says it: unreachable, its kept answer's age until it answers
 * ("devbox kept 5m"), or its name once it did ("devbox ✓"); `compact` leaves out a host
 * that answered.
 */
export function hostText(h: HostView, compact: boolean, now = Date.now()): string {
  const name = sanitizeLine(h.name);
  if (h.state === "unreachable") return `${name} unreachable`;
  if (h.state === "live") return compact ? "" : `${name} ✓`;
  if (h.at === undefined) return `${name} …`;
  const age = formatAge(new Date(h.at), now).trim();
  return `${name} kept ${age === "now" ? "<1m" : age}`;
}

/** Which way each sort runs: newest, most or largest first (↓), names A to Z (↑). */
const SORT_ARROW: Partial<Record<SortKey, string>> = {
  recent: " ↓",
  created: " ↓",
  messages: " ↓",
  size: " ↓",
  name: " ↑",
};

/** The index catching up, after the list is complete: "indexing 120/900", then "indexing tools 40/900". */
function indexingText(i: NonNullable<ScanProgress["indexing"]>): string {
  return `indexing${i.pass === "tools" ? " tools" : ""} ${i.done}/${i.total}`;
}

export function scanText(scan: ScanProgress): string {
  if (scan.error) return `scan failed: ${sanitizeLine(scan.error)}`;
  if (scan.done) return scan.indexing ? indexingText(scan.indexing) : "";
  if (scan.discovered === null) return "scanning…";
  return `scanning ${Math.min(scan.scanned, scan.discovered)}/${scan.discovered}`;
}

/**
 * "pi-sessions  <store>  this folder  12/340  sort: recent  scanning 3/9". What gives way
 * when it does not fit: the store label's explanation shortens ("(a copy of the demo store)"),
 * the start of the store's path goes (…/agent/sessions) while the short explanation stays,
 * the facts on the right say less, and last the explanation goes; the path always keeps
 * some of its end.
 */
export function headerText(h: HeaderInfo, width: number): string {
  const lead = "pi-sessions ";
  const label = sanitizeLine(h.storeLabel);
  // "<path> (a copy of …: …)": the explanation shortens to its first words, then goes.
  const explained = /^(.*) \(([^():]*)(?::[^()]*)?\)$/.exec(label);
  const bare = explained ? explained[1] : label;
  const short = explained ? `${bare} (${explained[2]})` : label;
  const MIN_PATH = 16;
  /** The end of the path kept beside the explanation before the explanation goes. */
  const KEEP_PATH = 24;
  const tag = explained ? ` (${explained[2]})` : "";
  const roomFor = (right: string) => width - lead.length - displayWidth(right) - 3;
  // The facts on the right say less before they are cut mid-word: the path gives way first.
  const variants = [rightText(h, false), rightText(h, true)];
  for (const right of variants) {
    const storeW = roomFor(right);
    for (const l of [label, short]) if (displayWidth(l) <= storeW) return `${lead}${l} · ${right}`;
    // The short explanation (a copy of the demo store) outlasts the start of the path.
    if (tag && storeW - displayWidth(tag) >= KEEP_PATH)
      return `${lead}${truncateStartToWidth(bare, storeW - displayWidth(tag))}${tag} · ${right}`;
    if (displayWidth(bare) <= storeW) return `${lead}${bare} · ${right}`;
  }
  // Nothing fits whole: the fuller facts if the path keeps MIN_PATH beside them, and the line cut.
  const right = variants.find((r) => roomFor(r) >= MIN_PATH) ?? variants[1];
  return truncateToWidth(`${lead}${truncateStartToWidth(bare, Math.max(roomFor(right), MIN_PATH))} · ${right}`, width);
}

/** The facts after the store: scope, count, sort, scan, skipped files; `compact` in fewer words. */
function rightText(h: HeaderInfo, compact: boolean): string {
  const scope =
    h.scope === "cwd"
      ? compact
        ? "here"
        : "this folder"
      : h.scope === "hosts"
        ? compact
          ? "hosts"
          : "every host"
        : compact
          ? "all"
          : "all folders";
  const sort = `${compact ? "" : "sort: "}${h.sort}${SORT_ARROW[h.sort] ?? ""}`;
  const parts = [scope, `${h.shown}/${h.total}`, sort];
  if (h.namedOnly) parts.splice(1, 0, compact ? "named" : "named only");
  if (h.marked) parts.unshift(`${h.marked} marked`);
  const scan = scanText(h.scan);
  if (scan) parts.push(scan);
  for (const host of h.hosts ?? []) {
    const t = hostText(host, compact);
    if (t) parts.push(t);
  }
  // Files that are not readable sessions are said, not passed over in silence.
  if (h.scan.diagnostics > 0) {
    const see = h.skippedKey ? (compact ? ` ${h.skippedKey}` : ` (${h.skippedKey} shows)`) : "";
    parts.push(compact ? `${h.scan.diagnostics} skipped${see}` : `${plural(h.scan.diagnostics, "file")} skipped${see}`);
  }
  return parts.join(" · ");
}
