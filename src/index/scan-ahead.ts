import type { SessionFile } from "../store/discover.js";
import { scanSessionFile } from "../store/scan-file.js";
import { availableParallelism } from "node:os";
import { TEXT_WORKER_URL, TextReaders, type ScannedFile } from "./text-readers.js";

/*
 * `index`'s scan on the text readers: a first build's summaries (every line of 50,000 files
 * parsed) took its main thread 12-18 s before the text began, that thread being the one
 * the whole build waits on (SQLite's writes). The readers make the summaries of the files
 * ahead, in groups; the scan takes them in its own order (the index is written as a scan
 * on one thread writes it), and makes here those a reader did not (a larger file, a reader
 * that failed).
 */

/** Files summarized ahead of the one the scan takes, at most, and to a message. */
export const SCAN_AHEAD_FILES = 128;
export const SCAN_GROUP_FILES = 16;
/** A larger file is summarized by the scan itself: a reader's heap is small (text-readers.ts). */
export const SCAN_ON_READER_BYTES = 1024 * 1024;

/**
 * Readers worth starting for the scan on `parallelism` cores: one per core (the scan's own
 * thread only takes the summaries in, and writes the snapshot after), at most four; none on one core.
 */
export function scanReaderCount(parallelism = availableParallelism()): number {
  return parallelism < 2 ? 0 : Math.min(parallelism, 4);
}

/**
 * ScanOptions.scanAhead for `index`: readers started for the scan's files when there are
 * READERS_FROM_FILES of them or more, and ended once it has taken the last (before the
 * snapshot is written: its making is the command's peak of memory). `close` ends them if
 * the scan never got there (it failed).
 */
export function scanOnReaders(
  url: URL = TEXT_WORKER_URL,
  count = scanReaderCount(),
): { scanAhead: (files: SessionFile[]) => ScanAhead | undefined; close(): Promise<void> } {
  let readers: TextReaders | undefined;
  return {
    scanAhead: (files) => {
      readers = TextReaders.start(url, count);
      return readers && files.length >= readers.fromFiles ? new ScanAhead(readers, files) : undefined;
    },
    close: async () => readers?.close(),
  };
}

export class ScanAhead {
  private next = 0;
  private readonly held = new Map<string, Promise<ScannedFile | undefined>>();
  /** Files whose summary a reader made (tests: the readers did the work). */
  scanned = 0;

  constructor(
    private readonly readers: TextReaders,
    /** Every file the scan will ask for, in its order. */
    private readonly files: readonly SessionFile[],
  ) {}

  /** File `f`'s summary, and when its read began: a reader's, or made here. */
  async scan(f: SessionFile): Promise<ScannedFile> {
    this.fill();
    const ahead = this.held.get(f.path);
    this.held.delete(f.path);
    const made = ahead && (await ahead);
    if (made) {
      this.scanned++;
      return made;
    }
    const readFrom = Date.now();
    return { scan: await scanSessionFile(f, { sync: true }), readFrom };
  }

  /** The scan took its last file: the readers, the scan's own, end. */
  done(): Promise<void> {
    return this.readers.close();
  }

  /** Sends the files after the last sent, in groups, while fewer than SCAN_AHEAD_FILES are held. */
  private fill(): void {
    while (this.next < this.files.length && this.held.size + SCAN_GROUP_FILES <= SCAN_AHEAD_FILES) {
      const group: SessionFile[] = [];
      while (this.next < this.files.length && group.length < SCAN_GROUP_FILES) {
        const f = this.files[this.next++]!;
        if (f.bytes <= SCAN_ON_READER_BYTES) group.push(f);
      }
      if (group.length === 0) continue;
      const made = this.readers.scan(group);
      group.forEach((f, i) =>
        this.held.set(
          f.path,
          made.then((m) => m?.[i]),
        ),
      );
    }
  }
}
