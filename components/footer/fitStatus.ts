import { truncateToWidth } from "../../src/text/sanitize.js";
import { displayWidth } from "../../src/text/width.js";

/** Where a status message's closing hint starts ("forked → x · u undoes it", "… — u to undo"). */
const HINT = / (?:·|—) (?!.* (?:·|—) )/;

/**
 * A status message cut to `width` columns. Its closing hint (the key that undoes what was
 * just done) is what the user acts on: when the message is too long, the part before it is
 * cut, not the hint.
 */
export function fitStatus(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  const at = text.search(HINT);
  if (at <= 0) return truncateToWidth(text, width);
  const hint = text.slice(at);
  const room = width - displayWidth(hint);
  // Too narrow for a useful head with the hint: the message as it comes, cut at the end.
  if (room < 8) return truncateToWidth(text, width);
  return truncateToWidth(text.slice(0, at), room) + hint;
}
