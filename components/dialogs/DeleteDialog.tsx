import { mayBeOpenInPi, OPEN_IN_PI_WARNING } from "../../src/actions/recent-write.js";
import { sanitizeLine } from "../../src/text/sanitize.js";
import { batchSummary, type DeleteTarget } from "../../src/browser/lifecycle/lifecycle.js";
import { type DialogLine, LinesDialog } from "./LinesDialog.js";

interface Props {
  step: "confirm" | "permanent";
  targets: readonly DeleteTarget[];
  bulk: boolean;
  /** The trash folder; null when there is none; undefined when not known yet. */
  trashDir: string | null | undefined;
  /** Why the trash could not be used (a failed trash attempt). */
  reason?: string;
  /** A permanent delete was asked for (D): the first step says so. */
  permanent?: boolean;
  /** Marked sessions the list does not show now. */
  hidden?: number;
  /** The keys that answer a delete to the trash (pi's question): "Enter or y", "Esc or n". */
  yesKeys?: string;
  noKeys?: string;
  now: number;
  width: number;
  height: number;
}

/** What the delete will do, in words: the first confirmation, or the second one before a permanent delete. */
export function deleteLines(p: Omit<Props, "width" | "height">): DialogLine[] {
  const one = p.targets.length === 1 && !p.bulk;
  const what = one ? `"${p.targets[0].title}"` : batchSummary(p.targets);
  const out: DialogLine[] = [];
  if (p.step === "confirm") {
    out.push({ text: one ? `Delete session ${what}?` : `Delete ${what}?` });
  } else {
    if (p.reason) out.push({ text: `Cannot move to the trash: ${sanitizeLine(p.reason)}`, tone: "error" });
    out.push({ text: `Delete ${what} permanently?`, tone: "error" });
  }
  if (one) out.push({ text: sanitizeLine(p.targets[0].where ?? p.targets[0].path), tone: "muted", path: true });
  else for (const t of p.targets.slice(0, 5)) out.push({ text: `  • ${t.title}`, tone: "muted" });
  if (!one && p.targets.length > 5) out.push({ text: `  … and ${p.targets.length - 5} more`, tone: "muted" });
  // Nothing is deleted that the user has not seen: marks out of view are named as such.
  if (p.hidden) {
    // Short enough for an 80-column terminal's dialog.
    const where = "in the list now (marked in another folder or search)";
    const text =
      p.hidden === p.targets.length
        ? `⚠ None of them is ${where}.`
        : `⚠ ${p.hidden} of them ${p.hidden === 1 ? "is" : "are"} not ${where}.`;
    out.push({ text, tone: "warning" });
  }
  const recent = p.targets.filter((t) => !t.ours && mayBeOpenInPi(t.mtimeMs, p.now));
  if (recent.length > 0) {
    const who = one ? "It" : recent.length === 1 ? "One of them" : `${recent.length} of them`;
    out.push({ text: `⚠ ${who} ${OPEN_IN_PI_WARNING}.`, tone: "warning" });
  }
  out.push({ text: "" });
  // Another machine's sessions go to that machine's trash (src/remote), whatever this one has.
  const hosts = [...new Set(p.targets.map((t) => t.host).filter((h) => h !== undefined))];
  if (p.step === "confirm" && !p.permanent && hosts.length > 0) {
    const mixed = p.targets.some((t) => t.host === undefined);
    const to = mixed ? `each machine's own: ${hosts.join(", ")} and this one` : `on ${hosts.join(", ")}`;
    out.push({ text: sanitizeLine(`Move to the trash ${to}`), tone: "warning" });
    out.push({ text: "▸ Cancel (Enter, Esc, any key)  ·  y delete", tone: "key" });
  } else if (p.step === "confirm") {
    if (p.permanent)
      out.push({ text: "Delete permanently, not to the trash; you will be asked again.", tone: "error" });
    else if (p.trashDir === null)
      out.push({ text: "Delete permanently (there is no trash here); you will be asked again.", tone: "error" });
    else out.push({ text: p.trashDir ? `Move to trash (${p.trashDir})` : "Move to trash", tone: "warning" });
    if (p.permanent)
      // Cancel has the focus: Enter (a reflex after the key that opened this) cancels; only y goes on.
      out.push({ text: "▸ Cancel (Enter, Esc, any key)  ·  y go on", tone: "key" });
    else {
      // pi's question (/resume): Enter or y answers it, Esc or n cancels, other keys wait.
      const yes = p.yesKeys || "Enter or y";
      const no = p.noKeys || "Esc or n";
      const go = p.trashDir === null ? "go on" : "delete";
      out.push({ text: `▸ ${yes} ${go}  ·  ${no} cancel`, tone: "key" });
    }
  } else {
    out.push({ text: "This cannot be undone.", tone: "error" });
    // Y, not y: one held or double-tapped key never answers both questions.
    out.push({ text: "▸ Cancel (Enter, Esc, y, any key)  ·  Y (capital) delete permanently", tone: "key" });
  }
  return out;
}

export function DeleteDialog({ width, height, ...p }: Props) {
  const title = p.step === "permanent" ? "Delete permanently" : "Delete";
  return <LinesDialog title={title} lines={deleteLines(p)} width={width} height={height} />;
}
