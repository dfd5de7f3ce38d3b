import { displayWidth, truncateToWidth } from "../../src/text/sanitize.js";

/** The top border with the title in it: "╭─ Sessions ──────── 12/340 ─╮" (lazygit, k9s). */
export function topBorder(
  title: string,
  info: string,
  width: number,
): { left: string; title: string; fill: string; info: string; right: string } {
  const inner = Math.max(0, width - 2);
  const t = truncateToWidth(title ? ` ${title} ` : "", Math.max(0, inner - 1));
  const i = info && displayWidth(t) + displayWidth(info) + 4 <= inner ? ` ${info} ` : "";
  const fill = Math.max(0, inner - 1 - displayWidth(t) - displayWidth(i) - (i ? 1 : 0));
  return { left: "╭─", title: t, fill: "─".repeat(fill), info: i, right: (i ? "─" : "") + "╮" };
}
