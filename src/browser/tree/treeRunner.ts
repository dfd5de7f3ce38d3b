import { stat } from "node:fs/promises";
import { forkAtEntry } from "../../actions/fork.js";
import { labelEntry } from "../../actions/label.js";
import { resumeAtEntry } from "../../actions/navigate.js";
import { sharedIndexCache } from "../../store/index-cache.js";
import { readEntry, type SessionIndex } from "../../store/session-index.js";
import { editorText } from "../../model/text.js";
import type { EntryNode } from "../../model/types.js";
import { fsPath } from "../../store/fs-path.js";
import { searchEntries } from "../../search/entry-search.js";
import { scanSessionFile } from "../../store/scan-file.js";
import { fileStamp } from "../lifecycle/lifecycleEffects.js";
import type { FileStamp } from "../lifecycle/lifecycleTypes.js";
import { type FileIdentity, identityProblem } from "../../store/file-identity.js";
import { mayBeOpenInPi } from "../../actions/recent-write.js";
import type { TreeEffect } from "./treeEffects.js";
import type { TreeAction } from "./treeReducer.js";

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The I/O behind the tree; injectable for tests. */
export interface TreeIO {
  /** A skimmed index of the session (bulky tool outputs unparsed). */
  loadIndex(path: string): Promise<SessionIndex>;
  search: typeof searchEntries;
  mtimeMs(path: string): Promise<number>;
  label: typeof labelEntry;
  navigate: typeof resumeAtEntry;
  fork: typeof forkAtEntry;
  scanFile: typeof scanSessionFile;
  /** The full text of a user message, as pi puts it in its editor. */
  messageText(path: string, node: EntryNode): Promise<string>;
  /** Puts text on the clipboard through the terminal (OSC 52). */
  copy(text: string): void;
  now(): number;
  /** Size and mtime after our own write, so it is not taken for pi's. */
  stamp?(path: string): FileStamp | undefined;
  /** Whether a folder still exists (a resume-at-entry writes nothing when the session's, at `path`, is gone). */
  cwdExists?(dir: string, path?: string): boolean;
  /** Why pi cannot be started (for the session at `path`): a resume-at-entry then writes nothing and says so. */
  piProblem?(path?: string): string | undefined;
  /** Why the file is not the one read as `was` (replaced, rewritten, gone), or undefined. */
  identityProblem?(path: string, was: FileIdentity | undefined): string | undefined;
}

export const realTreeIO: TreeIO = {
  // Shared with the preview, which has usually read this session already.
  loadIndex: (path) => sharedIndexCache.get(path),
  search: searchEntries,
  mtimeMs: async (p) => (await stat(fsPath(p))).mtimeMs,
  label: labelEntry,
  navigate: resumeAtEntry,
  fork: forkAtEntry,
  scanFile: scanSessionFile,
  messageText: async (path, node) => {
    const e = await readEntry(path, node);
    return editorText(e.type === "custom_message" ? e.content : e.message?.content);
  },
  // The browser passes its own (the terminal it draws on, which is not stdout with --print).
  copy: () => {},
  now: () => Date.now(),
  stamp: fileStamp,
  identityProblem,
};

/** Runs one tree effect; results come back as actions. Never throws. */
export function runTreeEffect(
  e: TreeEffect,
  dispatch: (a: TreeAction) => void,
  io: TreeIO,
  ctx: { search?: AbortController },
  afterWrite?: () => void,
): void {
  switch (e.type) {
    case "tree.load":
      // Skimmed: bulky tool outputs stay unparsed; their rows are named by the tool-call map.
      io.loadIndex(e.path).then(
        (index) => dispatch({ type: "tree.loaded", path: e.path, seq: e.seq, index }),
        (err) => dispatch({ type: "tree.loadFailed", path: e.path, seq: e.seq, error: message(err) }),
      );
      return;
    case "tree.search": {
      ctx.search?.abort();
      const ac = new AbortController();
      ctx.search = ac;
      io.search(e.path, e.index, e.query, ac.signal).then(
        (ids) => dispatch({ type: "tree.searched", path: e.path, seq: e.seq, ids }),
        (err) => {
          if (!ac.signal.aborted)
            dispatch({ type: "tree.searchFailed", path: e.path, seq: e.seq, error: message(err) });
        },
      );
      return;
    }
    case "tree.write": {
      const { path } = e;
      // A resume writes only when pi can start: else nothing is written. Where the session's
      // folder is gone, pi starts where the browser was and asks itself (once) what to do.
      const gone = e.cwd !== undefined && io.cwdExists !== undefined && !io.cwdExists(e.cwd, path);
      const write =
        gone && e.launchCwd && e.write.op === "navigate" ? { ...e.write, then: { cwd: e.launchCwd } } : e.write;
      const problem = write.op === "navigate" ? io.piProblem?.(path) : undefined;
      if (problem) {
        dispatch({ type: "tree.writeFailed", path, error: problem });
        return;
      }
      (async () => {
        // Never write into a file other than the one on screen: git's rule.
        const stale = io.identityProblem?.(path, e.read);
        if (stale) {
          dispatch({ type: "tree.stale", path, error: stale });
          return;
        }
        if (!e.force) {
          const m = await io.mtimeMs(path);
          if (mayBeOpenInPi(m, io.now(), e.ownMtime)) {
            dispatch({ type: "tree.confirmWrite", path, write });
            return;
          }
        }
        // The message is read before anything is written: a failure leaves the file as it was.
        const copyText = write.op === "navigate" && write.copyOf ? await io.messageText(path, write.copyOf) : undefined;
        const wrote = write.op === "label" ? true : (await io.navigate(path, write.entryId)) !== null;
        if (write.op === "label") await io.label(path, write.entryId, write.label);
        if (copyText) io.copy(copyText);
        const mtimeMs = await io.mtimeMs(path).catch(() => undefined);
        afterWrite?.();
        dispatch({
          type: "tree.written",
          path,
          write,
          wrote,
          mtimeMs,
          stamp: io.stamp?.(path),
          ...(copyText !== undefined ? { copied: copyText.length > 0 } : {}),
        });
      })().catch((err) => dispatch({ type: "tree.writeFailed", path, error: message(err) }));
      return;
    }
    case "tree.fork":
      (async () => {
        // A fork copies what the tree showed, or nothing.
        const stale = io.identityProblem?.(e.path, e.read);
        if (stale) {
          dispatch({ type: "tree.stale", path: e.path, error: stale.replace("nothing written", "nothing forked") });
          return;
        }
        const res = await io.fork(e.path, e.entryId);
        const scan = await io.scanFile(res.path);
        afterWrite?.();
        dispatch({
          type: "tree.forked",
          source: e.path,
          path: res.path,
          summary: scan.kind === "session" ? scan.summary : undefined,
        });
      })().catch((err) => dispatch({ type: "tree.forkFailed", path: e.path, error: message(err) }));
      return;
  }
}
