import { say } from "../core/status.js";
import { sanitizeLine } from "../../text/sanitize.js";
import type { CommandId } from "../keys/commands.js";
import { pop, push, topLayer } from "../core/layers.js";
import { type LifecycleHost, openDelete } from "../lifecycle/lifecycle.js";
import { selectedSession } from "../list/list.js";
import { type Next, withEffect } from "../core/next.js";
import type { ReaderState } from "../reader/readerState.js";
import { currentId, type TreeState } from "../tree/treeState.js";
import { blockText, blockWhat, resumeCommand, shellQuote, sizeNote } from "./copyText.js";
import type { ExportFormat } from "./exportFile.js";
import type { TakeoutAction, TakeoutEffect } from "./copyExportTypes.js";

/*
 * Taking things out of a session: copy (y p i c), export (e), a new pi session in its
 * folder (n) and the permanent delete (D). The session is the reader's, else the tree's,
 * else the list's selection. Pure: the clipboard, files and pi are effects.
 */

export function isTakeoutCommand(c: CommandId): boolean {
  return c.startsWith("copy.") || c.startsWith("export.") || c === "session.new" || c === "session.deletePermanently";
}

/** What taking things out reads: the session in view (the reader's, the tree's or the list's), where to export to, and the delete it can open (D). */
export interface TakeoutHost extends LifecycleHost {
  reader: ReaderState | null;
  tree: TreeState | null;
  print: boolean;
  /** The pi command the browser resumes with, word by word (the resume command `c` copies says it). */
  piCommand?: readonly string[];
}

type TakeoutNext<S> = Next<S, TakeoutEffect>;

interface Target {
  path: string;
  cwd: string;
  id: string;
  title: string;
  /** Another machine's session: its host and its path there (`path` is this machine's copy). */
  remote?: { host: string; path: string };
}

/** The target, with its host when the session is another machine's. */
function located<S extends TakeoutHost>(s: S, t: Target | undefined): Target | undefined {
  const x = t && s.sessions.get(t.path);
  return x?.host !== undefined && x.remotePath !== undefined
    ? { ...t!, remote: { host: x.host, path: x.remotePath } }
    : t;
}

/** The session the command is about: the reader's, the tree's, or the selected one. */
function targetOf<S extends TakeoutHost>(s: S): Target | undefined {
  const top = topLayer(s);
  if (top?.kind === "reader" && s.reader)
    return {
      path: s.reader.path,
      cwd: s.reader.cwd,
      id: String(s.reader.index?.header.id ?? ""),
      title: s.reader.title,
    };
  if (top?.kind === "tree" && s.tree)
    return { path: s.tree.path, cwd: s.tree.cwd, id: String(s.tree.index?.header.id ?? ""), title: s.tree.title };
  const sel = selectedSession(s);
  return (
    sel && {
      path: sel.path,
      cwd: sel.cwd,
      id: sel.id,
      title: sanitizeLine(sel.name ?? "") || sanitizeLine(sel.firstMessage) || sel.id,
    }
  );
}

const copy = <S extends TakeoutHost>(s: S, text: string, what: string): TakeoutNext<S> =>
  withEffect(s, { type: "copy", text, what });

const FORMATS: Partial<Record<CommandId, ExportFormat>> = {
  "export.md": "md",
  "export.mdAll": "mdAll",
  "export.html": "html",
  "export.jsonl": "jsonl",
};

function copyMessage<S extends TakeoutHost>(s: S): TakeoutNext<S> {
  const top = topLayer(s);
  if (top?.kind === "reader" && s.reader) {
    const tr = s.reader.transcript;
    const b = tr && tr.blockCount ? tr.block(s.reader.cursor.block) : null;
    if (!b) return say(s, "nothing under the cursor to copy", "note");
    const text = blockText(b);
    return copy(s, text, `${blockWhat(b)} (${sizeNote(text)})`);
  }
  if (top?.kind === "tree" && s.tree) {
    const id = currentId(s.tree);
    return id !== undefined && s.tree.index
      ? withEffect(s, { type: "copyEntry", index: s.tree.index, entryId: id })
      : s;
  }
  const sel = selectedSession(s);
  if (!sel?.firstMessage) return say(s, "this session has no message to copy", "note");
  return copy(s, sel.firstMessage, `the session's first message (${sizeNote(sel.firstMessage)})`);
}

export function runTakeoutCommand<S extends TakeoutHost>(s: S, c: CommandId): TakeoutNext<S> {
  const top = topLayer(s);
  if (c === "export.cancel" || c === "app.interrupt") return top?.kind === "export" ? pop(s) : s;
  const format = FORMATS[c];
  if (format) {
    if (top?.kind !== "export") return s;
    return withEffect(say(pop(s), "exporting…"), {
      type: "export",
      path: top.path,
      format,
      leafId: top.leafId,
      dir: s.launchCwd,
    });
  }
  if (c === "session.deletePermanently") return openDelete(s, true);
  const t = located(s, targetOf(s));
  if (!t) return s;
  switch (c) {
    case "copy.message":
      return copyMessage(s);
    case "copy.path": {
      // As scp names another machine's file: HOST:PATH.
      const p = t.remote ? `${t.remote.host}:${t.remote.path}` : t.path;
      return copy(s, p, `the file path: ${sanitizeLine(p)}`);
    }
    case "copy.id":
      return t.id
        ? copy(s, t.id, `the session id: ${sanitizeLine(t.id)}`)
        : say(s, "the session id is not known yet", "note");
    case "copy.command": {
      // Another machine's session resumes there: ssh -t HOST '<the command>'.
      const cmd = t.remote
        ? `ssh -t ${shellQuote(t.remote.host)} ${shellQuote(resumeCommand(t.cwd, t.remote.path, ["pi"]))}`
        : resumeCommand(t.cwd, t.path, s.piCommand);
      return copy(s, cmd, `the resume command: ${sanitizeLine(cmd)}`);
    }
    case "export.open": {
      // The reader's branch, or in the tree the branch through the entry under the cursor.
      const r = top?.kind === "reader" ? s.reader : null;
      const leafId = r
        ? r.ids.length
          ? r.ids[r.ids.length - 1]
          : undefined
        : top?.kind === "tree" && s.tree
          ? currentId(s.tree)
          : undefined;
      return push(s, { kind: "export", path: t.path, title: t.title, ...(leafId ? { leafId } : {}) });
    }
    case "session.new":
      if (s.print) return say(s, "n starts pi: not while picking a session", "error");
      return withEffect(s, { type: "newSession", cwd: t.cwd });
    default:
      return s;
  }
}

export function takeoutReducer<S extends TakeoutHost>(s: S, a: TakeoutAction): S {
  return say(s, a.text, a.tone);
}
