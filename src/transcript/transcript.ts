import { blockArray, isMessageKind, type Block, type BlockList } from "./blocks.js";
import {
  blockSource,
  layoutSource,
  nextToolMode,
  toolModeOf,
  type DisplayLine,
  type LayoutOptions,
  type ToolMode,
} from "./layout.js";
import type { SourceLine } from "./markdown-light.js";

/** A place in the transcript: a block and a display line inside it. */
export interface Position {
  block: number;
  line: number;
}

/**
 * The laid-out transcript of a branch, computed lazily block by block and cached: what
 * is never scrolled to is never laid out (and, for a lazily read session, never read).
 * Options are fixed for the object's life except per-block tool modes (`cycleTool`),
 * which drop only that block's cache; a new width or thinking toggle makes a new object
 * over the same BlockList. Not a React state: the reader's reducer keeps a Position and
 * hands this object around. A block may show nothing (no lines); positions never point
 * into such a block.
 */
export class Transcript {
  private readonly sources = new Map<number, SourceLine[]>();
  private readonly laid = new Map<number, DisplayLine[]>();
  private readonly modes: Map<number, ToolMode>;
  readonly opts: LayoutOptions;
  readonly blocks: BlockList;

  constructor(blocks: BlockList | readonly Block[], opts: LayoutOptions) {
    this.blocks = Array.isArray(blocks) ? blockArray(blocks) : (blocks as BlockList);
    this.modes = new Map(opts.toolModes ?? []);
    this.opts = { ...opts, toolModes: this.modes };
  }

  get blockCount(): number {
    return this.blocks.length;
  }

  /** The block at `i` (read if need be), or null when it shows nothing. */
  block(i: number): Block | null {
    return this.blocks.get(i);
  }

  /** Blocks laid out so far (for tests and the benchmark: laziness is observable). */
  get laidOutCount(): number {
    return this.laid.size;
  }

  source(i: number): SourceLine[] {
    let s = this.sources.get(i);
    if (!s) {
      const b = this.blocks.get(i);
      this.sources.set(i, (s = b ? blockSource(b, i, this.opts) : []));
    }
    return s;
  }

  lines(i: number): DisplayLine[] {
    let l = this.laid.get(i);
    if (!l) {
      const src = this.source(i);
      this.laid.set(i, (l = src.length ? layoutSource(src, i, this.opts.width) : []));
    }
    return l;
  }

  toolMode(i: number): ToolMode {
    return toolModeOf(i, this.opts);
  }

  /** `t` on a tool block: collapsed → truncated → full → collapsed. Returns the new mode, or undefined for other blocks. */
  cycleTool(i: number): ToolMode | undefined {
    if (i < 0 || i >= this.blocks.length || this.blocks.kind(i) !== "tool") return undefined;
    const next = nextToolMode(this.toolMode(i));
    this.modes.set(i, next);
    this.sources.delete(i);
    this.laid.delete(i);
    return next;
  }

  /** The first block from `i` on (dir 1) or back (dir -1) that shows something; -1 when none. */
  private shown(i: number, dir: 1 | -1): number {
    for (let b = i; b >= 0 && b < this.blocks.length; b += dir) if (this.lines(b).length) return b;
    return -1;
  }

  /** The first display line of the transcript. */
  get start(): Position {
    return { block: Math.max(0, this.shown(0, 1)), line: 0 };
  }

  /** The last display line of the transcript. */
  get end(): Position {
    const b = this.shown(this.blocks.length - 1, -1);
    return b < 0 ? { block: 0, line: 0 } : { block: b, line: this.lines(b).length - 1 };
  }

  /** `pos` moved by `delta` display lines, clamped to the transcript; lays out only the blocks passed. */
  move(pos: Position, delta: number): Position {
    let block = this.shown(Math.min(Math.max(0, pos.block), this.blocks.length - 1), 1);
    if (block < 0) block = this.shown(Math.min(pos.block, this.blocks.length - 1), -1);
    if (block < 0) return { block: 0, line: 0 };
    let line = block === pos.block ? Math.min(Math.max(0, pos.line), this.lines(block).length - 1) : 0;
    let left = delta;
    while (left > 0) {
      const room = this.lines(block).length - 1 - line;
      if (left <= room) return { block, line: line + left };
      const next = this.shown(block + 1, 1);
      if (next < 0) return { block, line: line + room };
      left -= room + 1;
      block = next;
      line = 0;
    }
    while (left < 0) {
      if (-left <= line) return { block, line: line + left };
      const prev = this.shown(block - 1, -1);
      if (prev < 0) return { block, line: 0 };
      left += line + 1;
      block = prev;
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
    const here = pos.block >= 0 && pos.block < this.blocks.length ? this.blocks.kind(pos.block) : undefined;
    if (dir < 0 && pos.line > 0 && here && isMessageKind(here)) return { block: pos.block, line: 0 };
    for (let b = pos.block + dir; b >= 0 && b < this.blocks.length; b += dir) {
      if (isMessageKind(this.blocks.kind(b)) && this.lines(b).length) return { block: b, line: 0 };
    }
    return pos;
  }
}

export function comparePositions(a: Position, b: Position): number {
  return a.block - b.block || a.line - b.line;
}
