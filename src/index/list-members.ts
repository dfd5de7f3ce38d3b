import { gunzipSync } from "node:zlib";

/** A row's `list --json` pieces as UTF-8 bytes (snapshot-codec's BytePieces). */
type Pieces = readonly [head: Uint8Array, tail: Uint8Array];

/** A kept list text unzipped, or null when it is none (not gzip: an older layout's, or damaged). */
export function decodeList(list: Uint8Array): Uint8Array | null {
  try {
    return gunzipSync(list);
  } catch {
    return null;
  }
}

/** Members of a list text kept unzipped at once while rows' pieces are read out of them. */
const KEPT_MEMBERS = 4;

/**
 * Rows' pieces out of a list text kept as gzip members, each holding whole rows, `gen` and a
 * newline first. `list --json` asks for them in its order, most often near the order they
 * were read in (newest first): a few members are kept unzipped at a time, not the whole text
 * (48 MB at 50,000 sessions); an order that would unzip them again and again has the whole
 * text unzipped once instead. A member (or the whole) not as long as its rows say, or a text
 * whose first member does not start with the generation, is none of these rows': their
 * pieces are undefined.
 */
export class ListMembers {
  /** Each row's start in its member's text, and each member's length unzipped. */
  private readonly starts: number[];
  private readonly lengths: number[] = [];
  private readonly recent = new Map<number, Uint8Array | null>();
  /** Per member, whether it was unzipped; and how many times one was unzipped again. */
  private readonly unzipped: Uint8Array;
  private again = 0;
  private whole?: { text: Uint8Array | null; at: number[] };

  constructor(
    private readonly text: Uint8Array,
    private readonly head: Uint8Array,
    /** Per member, its first row; and where each starts in `text`, then the end. */
    private readonly memberRow: readonly number[],
    private readonly memberAt: readonly number[],
    private readonly lh: readonly number[],
    private readonly lt: readonly number[],
  ) {
    this.unzipped = new Uint8Array(memberRow.length);
    this.starts = new Array<number>(lh.length);
    let m = 0;
    let pos = head.length;
    for (let r = 0; r < lh.length; r++) {
      if (m + 1 < memberRow.length && r === memberRow[m + 1]) {
        this.lengths.push(pos);
        m++;
        pos = 0;
      }
      this.starts[r] = pos;
      if (lh[r] >= 0) pos += lh[r] + lt[r];
    }
    this.lengths.push(pos);
  }

  /** Whether a list text and its members' layout fit these rows (else no ListMembers is made of them). */
  static fits(text: Uint8Array, memberRow: readonly number[], memberAt: readonly number[], rows: number): boolean {
    const m = memberRow.length;
    if (m < 1 || memberAt.length !== m + 1 || memberRow[0] !== 0 || memberAt[0] !== 0 || memberAt[m] !== text.length)
      return false;
    for (let k = 1; k < m; k++) if (!(memberRow[k] > memberRow[k - 1] && memberRow[k] < rows)) return false;
    for (let k = 1; k <= m; k++) if (!(memberAt[k] > memberAt[k - 1])) return false;
    return true;
  }

  /** Whether row i has pieces: the list's first member (its generation) is read, no other (see PiecesReader.has), and kept. */
  has(i: number): boolean {
    if (i < 0 || i >= this.lh.length || this.lh[i] < 0) return false;
    if (this.whole) return this.whole.text !== null;
    return this.generation();
  }

  pieces(i: number): Pieces | undefined {
    if (i < 0 || i >= this.lh.length || this.lh[i] < 0) return undefined;
    const m = this.memberOf(i);
    let member: Uint8Array | null | undefined;
    let a = this.starts[i];
    if (this.whole) {
      member = this.whole.text;
      a += this.whole.at[m];
    } else {
      // A later member's length alone does not tell this text is ours: another process's
      // snapshot laid out alike would give its bytes for our rows. Member 0 tells.
      if (!this.generation()) return undefined;
      member = this.recent.has(m) ? this.recent.get(m)! : this.unzip(m);
      if (member === undefined) return this.pieces(i); // the whole text is unzipped now
      this.keep(m, member);
    }
    if (!member) return undefined;
    return [member.subarray(a, a + this.lh[i]), member.subarray(a + this.lh[i], a + this.lh[i] + this.lt[i])];
  }

  /** Whether member 0 starts with the generation (kept in `recent`, so asking again is free). */
  private generation(): boolean {
    if (this.generationOk === undefined) {
      const first = this.recent.has(0) ? this.recent.get(0)! : this.unzip(0, false);
      this.generationOk = !!first;
      if (first) this.keep(0, first);
    }
    return this.generationOk;
  }

  private generationOk?: boolean;

  /** Member m kept unzipped, the most recently used; the least recently used let go past a few. */
  private keep(m: number, member: Uint8Array | null): void {
    this.recent.delete(m);
    this.recent.set(m, member);
    if (this.recent.size > KEPT_MEMBERS) this.recent.delete(this.recent.keys().next().value!);
  }

  /** Member m unzipped (null: not what its rows say); undefined when the whole text was unzipped instead. */
  private unzip(m: number, counted = true): Uint8Array | null | undefined {
    // A member unzipped again is an order that jumps (`--sort name`): past a few of those the
    // whole text is unzipped once (each member unzipped again and again, their pieces held by
    // what is written, were more than the whole).
    if (counted && (this.unzipped[m] ? ++this.again : 0) > KEPT_MEMBERS * 4) {
      this.unzipWhole();
      return undefined;
    }
    if (counted) this.unzipped[m] = 1;
    const text = decodeList(this.text.subarray(this.memberAt[m], this.memberAt[m + 1]));
    if (!text || text.length !== this.lengths[m] || (m === 0 && !this.startsWithHead(text))) return null;
    return text;
  }

  /** The whole text unzipped once, its rows' pieces read out of it from now on. */
  unzipWhole(): void {
    if (this.whole) return;
    this.recent.clear();
    const at = [0];
    for (let k = 1; k < this.lengths.length; k++) at.push(at[k - 1] + this.lengths[k - 1]);
    const whole = decodeList(this.text);
    const fits = whole && whole.length === at[at.length - 1] + this.lengths[this.lengths.length - 1];
    this.whole = { text: fits && this.startsWithHead(whole) ? whole : null, at };
  }

  private startsWithHead(text: Uint8Array): boolean {
    return Buffer.compare(text.subarray(0, this.head.length), this.head) === 0;
  }

  /** The member row i's pieces are in. */
  private memberOf(i: number): number {
    let lo = 0;
    let hi = this.memberRow.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.memberRow[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
