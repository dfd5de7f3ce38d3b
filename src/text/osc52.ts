import { clipboardText } from "./sanitize.js";

/**
 * The OSC 52 escape that asks the terminal to put `text` on the system clipboard (the `c`
 * selection), base64 of its UTF-8 bytes, ended by BEL (understood more widely than ST).
 * `tmux: true` wraps it in tmux's DCS passthrough (tmux forwards it only with
 * `allow-passthrough on`; tmux ≥ 3.3 also handles a bare OSC 52 itself when `set-clipboard`
 * is on, so pass `tmux` only where that is not enough). Pure: the caller writes the string.
 */
export function osc52(text: string, opts: { tmux?: boolean } = {}): string {
  // Every copy ends here: whatever is copied is pasted without its control characters.
  const seq = `\x1b]52;c;${Buffer.from(clipboardText(text), "utf8").toString("base64")}\x07`;
  if (!opts.tmux) return seq;
  // Inside a DCS passthrough every ESC of the wrapped sequence is doubled.
  return `\x1bPtmux;${seq.replace(/\x1b/g, "\x1b\x1b")}\x1b\\`;
}
