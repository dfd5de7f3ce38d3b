import { isMessageBlock, type Block } from "./blocks.js";
import { blockSource, layoutSource, nextToolMode, toolModeOf, type DisplayLine, type LayoutOptions, type ToolMode } from "./layout.js";
import type { SourceLine } from "./markdown-light.js";

/** A place in the transcript: a block and a display line inside it. */
export interface Position {
  block: number;
  line: number;
}

/**
 * The laid-out transcript of a branch, computed lazily block by block and cached: what
 * is never scrolled to is never laid out. Options are fixed for the object's life
 * except per-block tool modes (`cycleTool`), which drop only that block's cache; a new
 * width or thinking toggle makes a new object. Not a React state: the reader's reducer
 * keeps a Position and hands this object around.
 */
export class Transcript {
  private readonly sources = new Map<number, SourceLine[]>();
  private readonly laid = new Map<number, DisplayLine[]>();
  private readonly modes: Map<number, ToolMode>;
  readonly opts: LayoutOptions;

  constructor(
    readonly blocks: readonly Block[],
    opts: LayoutOptions,
  ) {
    this.modes = new Map(opts.toolModes ?? []);
    this.opts = { ...opts, toolModes: this.modes };
  }

  get blockCount(): number {
    return this.blocks.length;
  }

  /** Blocks laid out so far (for tests and the benchmark: laziness is observable). */
  get laidOutCount(): number {
    return this.laid.size;
  }

  source(i: number): SourceLine[] {
    let s = this.sources.get(i);
    if (!s) this.sources.set(i, (s = blockSource(this.blocks[i], i, this.opts)));
    return s;
  }

  lines(i: number): DisplayLine[] {
    let l = this.laid.get(i);
    if (!l) this.laid.set(i, (l = layoutSource(this.source(i), i, this.opts.width)));
    return l;
  }

  toolMode(i: number): ToolMode {
    return toolModeOf(i, this.opts);
  }

  /** `t` on a tool block: collapsed → truncated → full → collapsed. Returns the new mode, or undefined for other blocks. */
  cycleTool(i: number): ToolMode | undefined {
    if (this.blocks[i]?.kind !== "tool") return undefined;
    const next = nextToolMode(this.toolMode(i));
    this.modes.set(i, next);
    this.sources.delete(i);
    this.laid.delete(i);
    return next;
  }

  get start(): Position {
    return { block: 0, line: 0 };
  }

  /** The last display line of the transcript. */
  get end(): Position {
    const b = this.blocks.length - 1;
    return b < 0 ? { block: 0, line: 0 } : { block: b, line: this.lines(b).length - 1 };
  }

  /** `pos` moved by `delta` display lines, clamped to the transcript; lays out only the blocks passed. */
  move(pos: Position, delta: number): Position {
    if (this.blocks.length === 0) return { block: 0, line: 0 };
    let block = Math.min(Math.max(0, pos.block), this.blocks.length - 1);
    let line = Math.min(Math.max(0, pos.line), this.lines(block).length - 1);
    let left = delta;
    while (left > 0) {
      const room = this.lines(block).length - 1 - line;
      if (left <= room) return { block, line: line + left };
      if (block === this.blocks.length - 1) return { block, line: line + room };
      left -= room + 1;
      block++;
      line = 0;
    }
    while (left < 0) {
      if (-left <= line) return { block, line: line + left };
      if (block === 0) return { block: 0, line: 0 };
      left += line + 1;
      block--;
      line = this.lines(block).length - 1;
    }
    return { block, line };
  }

  /** The top line of a screen of `height` lines that ends with the transcript's last line (the reader opens here). */
  tail(height: number): Position {
    return this.move(this.end, -(Math.max(1, height) - 1));
  }

  /** Up to `height` display lines from `pos` on. */
  window(pos: Position, height: number): DisplayLine[] {
    const out: DisplayLine[] = [];
    let block = pos.block;
    let line = pos.line;
    while (out.length < height && block < this.blocks.length) {
      const ls = this.lines(block);
      while (line < ls.length && out.length < height) out.push(ls[line++]);
      block++;
      line = 0;
    }
    return out;
  }

  /** `{` (-1) / `}` (+1): the first line of the previous / next message block (tool calls are not messages). */
  jumpMessage(pos: Position, dir: -1 | 1): Position {
    if (dir < 0 && pos.line > 0 && this.blocks[pos.block] && isMessageBlock(this.blocks[pos.block])) return { block: pos.block, line: 0 };
    for (let b = pos.block + dir; b >= 0 && b < this.blocks.length; b += dir) {
      if (isMessageBlock(this.blocks[b])) return { block: b, line: 0 };
    }
    return pos;
  }
}

export function comparePositions(a: Position, b: Position): number {
  return a.block - b.block || a.line - b.line;
}
