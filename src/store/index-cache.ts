import { stat } from "node:fs/promises";
import { readIsRacy } from "./file-identity.js";
import { fsPath } from "./fs-path.js";
import { loadSessionIndex, type SessionIndex } from "./session-index.js";

/**
 * The last few session indexes read (skimmed), shared by the preview and the branch tree:
 * the preview has usually read the selected session by the time `t` is pressed, and a
 * 50,000-entry session takes a third of a second or more to read again. An index is
 * reused only while its file is the same file (inode) with the same size, mtime and ctime,
 * and was not read within a tick of its last change (readIsRacy); session files are
 * append-only, so anything written since shows in both. A read under
 * way is shared too, so `t` pressed while the preview is loading waits for that read.
 */
export class IndexCache {
  private readonly done = new Map<string, SessionIndex>();
  /** When each kept index's read started (Date.now()). */
  private readonly readFrom = new WeakMap<SessionIndex, number>();
  private readonly inFlight = new Map<string, Promise<SessionIndex>>();

  constructor(
    private readonly capacity = 2,
    private readonly load: (path: string) => Promise<SessionIndex> = (p) => loadSessionIndex(p, { skim: true }),
  ) {}

  async get(path: string): Promise<SessionIndex> {
    const running = this.inFlight.get(path);
    if (running) return running;
    const cached = this.done.get(path);
    if (cached) {
      const st = await stat(fsPath(path));
      const from = this.readFrom.get(cached);
      if (
        st.ino === cached.ino &&
        st.size === cached.bytes &&
        st.mtimeMs === cached.mtimeMs &&
        cached.ctimeMs !== undefined &&
        st.ctimeMs === cached.ctimeMs &&
        from !== undefined &&
        !readIsRacy(st.mtimeMs, st.ctimeMs, from)
      ) {
        this.done.delete(path); // most recently used goes last
        this.done.set(path, cached);
        return cached;
      }
      this.done.delete(path);
    }
    const from = Date.now();
    const p = this.load(path).then(
      (index) => {
        this.readFrom.set(index, from);
        this.inFlight.delete(path);
        this.done.set(path, index);
        while (this.done.size > this.capacity) this.done.delete(this.done.keys().next().value!);
        return index;
      },
      (err: unknown) => {
        this.inFlight.delete(path);
        throw err;
      },
    );
    this.inFlight.set(path, p);
    return p;
  }
}

/** The one cache of the running browser. */
export const sharedIndexCache = new IndexCache();
