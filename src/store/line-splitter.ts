/** One line of a file as raw bytes: `buf[start, end)` holds it, without the newline. */
export interface LineRef {
  buf: Buffer;
  start: number;
  end: number;
  /** Byte offset of the line in the file, and its 1-based number. */
  offset: number;
  line: number;
  /** False for a last line with no trailing newline (possibly cut mid-write). */
  terminated: boolean;
  /**
   * Set when the line was longer than `maxLineBytes`: its length in bytes. Its bytes were
   * not kept (`buf` is empty), so a hostile line costs at most the cap, never its size.
   */
  oversize?: number;
}

const NL = 0x0a;
const EMPTY = Buffer.alloc(0);

/**
 * Splits the chunks of a file, in order, into lines (readLines, readLinesSync): on the
 * newline byte, which never occurs inside a UTF-8 sequence; a line longer than a chunk is
 * assembled from its parts, and one longer than `maxLine` is counted, not kept
 * (LineRef.oversize).
 */
export class LineSplitter {
  private lineNo = 0;
  private carry: Buffer[] = [];
  private carryLen = 0;
  private carryOffset = 0;
  /** Bytes of the current line beyond what `carry` holds, once it went past the cap. */
  private dropped = 0;

  constructor(
    private readonly maxLine: number,
    private readonly onLine: (line: LineRef) => boolean | void,
  ) {}

  /** The lines ending in `chunk[0, bytesRead)`, read at file offset `chunkStart`; false once onLine stopped. */
  feed(chunk: Buffer, bytesRead: number, chunkStart: number): boolean {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, from);
      if (nl === -1 || nl >= bytesRead) break;
      this.lineNo++;
      const line = this.lineNo;
      let ref: LineRef;
      if (this.dropped > 0) {
        ref = this.oversize(this.carryOffset, line, this.dropped + (nl - from), true);
        this.dropped = 0;
      } else if (this.carryLen > 0 && this.carryLen + (nl - from) > this.maxLine) {
        ref = this.oversize(this.carryOffset, line, this.carryLen + (nl - from), true);
        this.carry = [];
        this.carryLen = 0;
      } else if (this.carryLen > 0) {
        this.carry.push(chunk.subarray(from, nl));
        const whole = Buffer.concat(this.carry, this.carryLen + (nl - from));
        ref = { buf: whole, start: 0, end: whole.length, offset: this.carryOffset, line, terminated: true };
        this.carry = [];
        this.carryLen = 0;
      } else if (nl - from > this.maxLine) {
        ref = this.oversize(chunkStart + from, line, nl - from, true);
      } else {
        ref = { buf: chunk, start: from, end: nl, offset: chunkStart + from, line, terminated: true };
      }
      if (this.onLine(ref) === false) return false;
      from = nl + 1;
    }
    if (from < bytesRead) {
      if (this.carryLen === 0 && this.dropped === 0) this.carryOffset = chunkStart + from;
      if (this.dropped > 0 || this.carryLen + (bytesRead - from) > this.maxLine) {
        // Past the cap: let go of what was kept and only count the rest of the line.
        this.dropped += this.carryLen + (bytesRead - from);
        this.carry = [];
        this.carryLen = 0;
      } else {
        // Copy: the chunk buffer is reused by the next read.
        const part = Buffer.from(chunk.subarray(from, bytesRead));
        this.carry.push(part);
        this.carryLen += part.length;
      }
    }
    return true;
  }

  /** The last line, when the file does not end with a newline. */
  end(): void {
    if (this.dropped > 0) {
      this.onLine(this.oversize(this.carryOffset, ++this.lineNo, this.dropped, false));
    } else if (this.carryLen > 0) {
      const whole = Buffer.concat(this.carry, this.carryLen);
      this.onLine({
        buf: whole,
        start: 0,
        end: whole.length,
        offset: this.carryOffset,
        line: ++this.lineNo,
        terminated: false,
      });
    }
  }

  private oversize(offset: number, line: number, bytes: number, terminated: boolean): LineRef {
    return { buf: EMPTY, start: 0, end: 0, offset, line, terminated, oversize: bytes };
  }
}
