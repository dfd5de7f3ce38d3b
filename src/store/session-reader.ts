import type { SessionEntry, SessionHeader } from "../model/types.js";
import type { LineRef } from "./line-reader.js";
import { parseLine, SKIM_THRESHOLD } from "./parse-line.js";

export const CURRENT_VERSION = 3;
const MAX_WARNINGS = 20;

export interface EntrySink {
  header?(header: SessionHeader): void;
  /** `skimmed`: the line's body was not parsed (a bulky tool output); only type, ids, timestamp and role are known. */
  entry(entry: SessionEntry, ref: LineRef, skimmed: boolean): void;
}

/**
 * Turns the lines of one file into a header and migrated entries exactly as pi reads them:
 * the first parsable line must be `{type:"session", id:<string>}`; unparsable lines are
 * skipped (and counted); v1 entries get ids chained in file order, v2 `hookMessage`
 * becomes `custom`. Migration happens in memory only.
 */
export class SessionReader {
  header: SessionHeader | undefined;
  /** Set when the first parsed line is not a session header: the file is not a session. */
  rejected: string | undefined;
  version = CURRENT_VERSION;
  entryCount = 0;
  skipped = 0;
  readonly warnings: string[] = [];
  private seen = new Set<string>();
  /** v1 only: ids assigned to parsed lines by index (0 = header), for firstKeptEntryIndex. */
  private v1Ids: (string | null)[] = [];
  private v1Prev: string | null = null;

  constructor(
    private readonly sink: EntrySink,
    private readonly skim = false,
    /** Lines longer than this may be skimmed (when `skim`). */
    private readonly skimThreshold = SKIM_THRESHOLD,
  ) {}

  get done(): boolean {
    return this.rejected !== undefined;
  }

  warn(line: number, reason: string): void {
    this.skipped++;
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push(`line ${line}: ${reason}`);
    else if (this.warnings.length === MAX_WARNINGS) this.warnings.push("more lines skipped (not listed)");
  }

  /** Warning count beyond the listed ones is still in `skipped`. */
  note(line: number, reason: string): void {
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push(`line ${line}: ${reason}`);
  }

  push(ref: LineRef): void {
    if (this.rejected !== undefined) return;
    const parsed = parseLine(ref, this.skim && this.header !== undefined, this.skimThreshold);
    if (parsed.kind === "blank") return;
    if (parsed.kind === "malformed") {
      this.warn(ref.line, `${parsed.reason}, skipped`);
      return;
    }
    const value = parsed.value as Record<string, unknown> | null;
    if (this.header === undefined) {
      if (value && typeof value === "object" && value.type === "session" && typeof value.id === "string") {
        this.header = value as SessionHeader;
        const v = typeof value.version === "number" ? value.version : 1;
        this.version = v;
        this.v1Ids.push(null);
        this.sink.header?.(this.header);
      } else {
        this.rejected = `line ${ref.line} is not a session header (expected {"type":"session","id":…})`;
      }
      return;
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      this.warn(ref.line, "not a JSON object, skipped");
      return;
    }
    if (value.type === "session") {
      if (this.version < 2) this.v1Ids.push(null);
      this.note(ref.line, "extra session header ignored");
      return;
    }
    const entry = value as SessionEntry;
    if (typeof entry.type !== "string") {
      this.warn(ref.line, "entry without a type, skipped");
      return;
    }
    if (this.version < 2) {
      this.migrateV1(entry);
    } else if (typeof entry.id !== "string" || entry.id === "") {
      this.warn(ref.line, "entry without an id, skipped");
      return;
    }
    if (entry.parentId !== null && typeof entry.parentId !== "string") entry.parentId = null;
    if (typeof entry.timestamp !== "string") entry.timestamp = "";
    if (this.version < 3 && entry.type === "message" && entry.message?.role === "hookMessage") {
      entry.message.role = "custom";
    }
    if (this.seen.has(entry.id)) this.note(ref.line, `duplicate id ${entry.id}: the later entry replaces the earlier`);
    else this.seen.add(entry.id);
    this.entryCount++;
    this.sink.entry(entry, ref, parsed.kind === "skimmed");
  }

  private migrateV1(entry: SessionEntry): void {
    // Deterministic stand-ins for the random ids pi would assign, so `show` is stable.
    const id = (this.v1Ids.length - 1).toString(16).padStart(8, "0");
    entry.id = id;
    entry.parentId = this.v1Prev;
    this.v1Prev = id;
    this.v1Ids.push(id);
    if (entry.type === "compaction" && typeof entry.firstKeptEntryIndex === "number") {
      const target = this.v1Ids[entry.firstKeptEntryIndex];
      if (target) entry.firstKeptEntryId = target;
      delete entry.firstKeptEntryIndex;
    }
  }
}
