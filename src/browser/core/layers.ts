import type { UsageBy } from "../../usage/aggregate.js";
import type { HelpSection } from "../keys/helpLines.js";
import type { MenuScreen } from "../keys/menuActions.js";
import type { DeleteTarget as TrashTarget, TrashRecord } from "../../actions/trash/index.js";
import type { TextInput } from "./textInput.js";

/*
 * The layer stack every screen and dialog is pushed on: their shapes, in one leaf module
 * below the app and its slices, so a slice can push its own layer without knowing the app.
 */

/**
 * A session as the user confirmed it for deletion: the trash's own target (src/actions/trash)
 * with every fact known, so a file that changed since is refused; `ours`: its last change
 * was our own write (rename, label, fork), so no "pi may have it open" warning.
 */
export type DeleteTarget = Required<Pick<TrashTarget, "path" | "sessionId" | "title" | "bytes" | "mtimeMs">> &
  Pick<TrashTarget, "cwd"> & {
    ours?: boolean;
    /** Another machine's session: its host, and where it is said as `HOST:PATH` (its `path` is this machine's copy). */
    host?: string;
    where?: string;
  };

export type LifecycleLayer =
  /** `mtimeMs`, `ours`: the file's last change, and whether it was our own write (the dialog warns when pi may have it open). */
  | { kind: "rename"; path: string; title: string; input: TextInput; mtimeMs: number; ours: boolean }
  /**
   * step "confirm" says what will happen; "permanent" is the second, explicit confirmation.
   * `permanent`: asked for a permanent delete (`D`), so the first step leads to the second, never to the trash.
   */
  | {
      kind: "delete";
      step: "confirm" | "permanent";
      targets: DeleteTarget[];
      bulk: boolean;
      reason?: string;
      permanent?: boolean;
      /** Marked sessions the list does not show now (another folder, a search): the dialog says so. */
      hidden?: number;
    };

export type UsageMetric = "cost" | "tokens";

/** The usage view's own state: its grouping, what the bars measure and how far it is scrolled. */
export interface UsageLayer {
  kind: "usage";
  by: UsageBy;
  metric: UsageMetric;
  /** First chart row shown. */
  top: number;
  /** What the view last reported: the largest useful `top`, and its rows per page. */
  maxTop: number;
  page: number;
}

/**
 * The trash view (`X`): this store's sessions in the trash, newest first. `items` is null
 * until the log is read. `purge`: a delete for good asked for, at its first or second
 * confirmation.
 */
export interface TrashLayer {
  kind: "trash";
  items: readonly TrashItem[] | null;
  cursor: number;
  /** Rows the view shows (it says so: trash.view); until then the list's page. */
  page?: number;
  purge?: { step: 1 | 2; record: TrashItem };
}

/** A trashed session as the view shows it: its log record (with its folder, read from the file for an older record). */
export type TrashItem = TrashRecord & {
  /**
   * Another machine's trashed session (src/remote): `original` is then this machine's copy's
   * path (as the list names the session), `hostPath` its path there; `trashedFile` is the
   * host's. Restored and deleted for good there, never here.
   */
  host?: string;
  hostPath?: string;
};

/** Overlays and input modes, innermost last. The list is the implicit bottom. */
export type Layer =
  | { kind: "search" }
  /** `first`: the section of the screen it was opened from, shown first. */
  | {
      kind: "help";
      first?: HelpSection;
      /** Only the keys whose words hold this; `typing` while it is being typed. */
      filter?: TextInput;
      typing?: boolean;
    }
  /** The files the scan skipped, and why (`!` from the list, as its header says). */
  | { kind: "skipped" }
  /** The action menu (x) over a screen, listing that screen's actions. */
  | { kind: "menu"; path: string; screen: MenuScreen }
  | LifecycleLayer
  | { kind: "tree" }
  /** The transcript reader, over the list or the tree (AppState.reader). */
  | { kind: "reader" }
  /** The export choices for a session; `leafId`: the branch the reader shows (else the active one). */
  | { kind: "export"; path: string; title: string; leafId?: string }
  /** Usage at a glance (`U`). */
  | UsageLayer
  | TrashLayer;

/** What a state with a layer stack has. */
export interface Layered {
  stack: readonly Layer[];
}

export function topLayer(s: Layered): Layer | undefined {
  return s.stack[s.stack.length - 1];
}

export function push<S extends Layered>(s: S, l: Layer): S {
  return { ...s, stack: [...s.stack, l] };
}

export function pop<S extends Layered>(s: S): S {
  return { ...s, stack: s.stack.slice(0, -1) };
}

export function replaceTop<S extends Layered>(s: S, l: Layer): S {
  return { ...s, stack: [...s.stack.slice(0, -1), l] };
}
