import sliceAnsi from "slice-ansi";
import { displayWidth } from "../../src/text/width.js";
import { composeRow, type Segment } from "./composeRow.js";

/*
 * Ink turns each frame into text in its Output class: every line written is split into
 * one object per character, placed in a grid, and every row of the grid is joined back
 * into a string with its colour codes, on every frame, changed or not. Holding ↓ redraws
 * two list rows and the preview's facts, yet that work was most of each key's time.
 *
 * withRowMemo(Output) is Ink's Output class with get() remembering each screen row: the
 * segments a row receives (after clipping and transformers, as Ink computes them) make
 * its key, and a row whose key is unchanged since the last frame reuses last frame's
 * text. Changed rows are drawn by composeRow, which gives Ink's text for a row at a
 * fraction of the cost. The bundle installs it in place of Ink's Output
 * (scripts/bundle.mjs); rowMemoOutput.test.ts checks it against Ink's on random frames.
 */

export type Transformer = (line: string, index: number) => string;
export interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}
export type Operation =
  | { type: "write"; x: number; y: number; text: string; transformers: Transformer[] }
  | { type: "clip"; clip: Clip }
  | { type: "unclip" };

export interface OutputLike {
  width: number;
  height: number;
  operations: Operation[];
  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void;
  clip(clip: Clip): void;
  unclip(): void;
  get(): { output: string; height: number };
}
export type OutputClass = new (options: { width: number; height: number }) => OutputLike;

export type { Segment };

function widestLine(text: string): number {
  let w = 0;
  for (const line of text.split("\n")) w = Math.max(w, displayWidth(line));
  return w;
}

/**
 * What each of `height` rows receives, in order: Ink's clip rules (a write wholly
 * outside the clip is skipped; lines are sliced to it), then its transformers with the
 * line's index, then its row (a write starting above the top or below the bottom draws
 * nothing, as in Ink).
 */
export function rowSegments(operations: Operation[], height: number): Segment[][] {
  const rows: Segment[][] = Array.from({ length: height }, () => []);
  const clips: Clip[] = [];
  for (const op of operations) {
    if (op.type === "clip") clips.push(op.clip);
    else if (op.type === "unclip") clips.pop();
    else {
      let { x, y } = op;
      let lines = op.text.split("\n");
      const clip = clips.at(-1);
      if (clip) {
        const horizontal = typeof clip.x1 === "number" && typeof clip.x2 === "number";
        const vertical = typeof clip.y1 === "number" && typeof clip.y2 === "number";
        const { x1 = 0, x2 = 0, y1 = 0, y2 = 0 } = clip;
        if (horizontal && (x + widestLine(op.text) < x1 || x > x2)) continue;
        if (vertical && (y + lines.length < y1 || y > y2)) continue;
        if (horizontal) {
          const from = x < x1 ? x1 - x : 0;
          lines = lines.map((line) => {
            const w = displayWidth(line);
            return sliceAnsi(line, from, x + w > x2 ? x2 - x : w);
          });
          if (x < x1) x = x1;
        }
        if (vertical) {
          const from = y < y1 ? y1 - y : 0;
          const to = y + lines.length > y2 ? y2 - y : lines.length;
          lines = lines.slice(from, to);
          if (y < y1) y = y1;
        }
      }
      // Ink advances to the next row only after drawing one, so once a row is missing
      // (y < 0 or past the bottom) the rest of the write is dropped.
      if (y < 0) continue;
      for (let i = 0; i < lines.length && y + i < height; i++) {
        let line = lines[i];
        for (const t of op.transformers) line = t(line, i);
        rows[y + i].push({ x, line });
      }
    }
  }
  return rows;
}

const rowKey = (width: number, segs: Segment[]) => {
  let key = String(width);
  for (const s of segs) key += `\u0000${s.x}\u0001${s.line}`;
  return key;
};

/** `compose` draws a changed row (a parameter so tests can count the rows drawn). */
export function withRowMemo(Base: OutputClass, compose: (width: number, segments: Segment[]) => string = composeRow): OutputClass {
  let previous: { key: string; text: string }[] = [];
  return class RowMemoOutput extends Base {
    override get(): { output: string; height: number } {
      const rows = rowSegments(this.operations, this.height);
      const next: { key: string; text: string }[] = new Array(this.height);
      for (let y = 0; y < this.height; y++) {
        const key = rowKey(this.width, rows[y]);
        const prev = previous[y];
        next[y] = prev !== undefined && prev.key === key ? prev : { key, text: compose(this.width, rows[y]) };
      }
      previous = next;
      return { output: next.map((r) => r.text).join("\n"), height: this.height };
    }
  };
}
