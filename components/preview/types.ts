/** One entry of the active path as the preview shows it (already sanitized). */
export interface PreviewEntry {
  role: string;
  text: string;
  toolCalls: string[];
  /** A context edit in effect at the leaf: the text is the replacement, or nothing for omit. */
  edit?: "omit" | "replace";
}

export interface PreviewTail {
  entries: PreviewEntry[];
  /** The first exchange: the active path's first user message and the reply to it (what a short pane shows first). */
  head?: PreviewEntry[];
  /** Entries on the active path in total (the tail is the last few). */
  pathLength: number;
}

export type PreviewLoader = (path: string) => Promise<PreviewTail>;

export type PreviewState =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "ready"; tail: PreviewTail }
  | { status: "error"; error: string };
