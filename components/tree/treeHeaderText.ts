import { displayWidth, sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";
import { matchPosition, type TreeState } from "../../src/browser/tree/treeState.js";

/** "tree · <title> · filter: default · 12/340 · match 2/5", the title cut first. */
export function treeHeaderText(t: TreeState, width: number): string {
  const parts: string[] = [`filter: ${t.filter}${t.labelTimes ? " · label times" : ""}`];
  if (t.status === "loading" && !t.view) parts.push("loading…");
  else if (t.view) parts.push(`${t.view.rows.length ? t.cursor + 1 : 0}/${t.view.rows.length}`);
  if (t.searching) parts.push("searching…");
  else if (t.query) {
    const { visible, at } = matchPosition(t);
    const hidden = t.matches.length - visible;
    parts.push(
      `${at ? `match ${at}/${visible}` : `${visible} ${visible === 1 ? "match" : "matches"}`}${hidden ? ` (+${hidden} hidden)` : ""}`,
    );
  }
  const right = parts.join(" · ");
  const lead = "tree · ";
  const titleW = width - displayWidth(lead) - displayWidth(right) - 3;
  if (titleW < 8) return truncateToWidth(lead + right, width);
  return truncateToWidth(`${lead}${truncateToWidth(sanitizeLine(t.title), titleW)} · ${right}`, width);
}
