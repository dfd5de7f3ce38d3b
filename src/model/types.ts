/** Shapes read from pi's session files, and what pi-sessions derives from them. */

/** First line of a session file. Unknown extra fields are kept. */
export interface SessionHeader {
  type: "session";
  id: string;
  version?: number;
  timestamp?: string;
  cwd?: string;
  parentSession?: string;
  [key: string]: unknown;
}

/**
 * Any non-header line, after in-memory migration. Known types carry the fields of
 * pi-session-format.md §5; unknown types are kept as they are.
 */
export interface SessionEntry {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
  message?: Record<string, unknown> & { role?: string };
  [key: string]: unknown;
}

export interface TokenTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

/** How a fork's parentSession resolved against the store. */
export type Lineage =
  { status: "none" } | { status: "resolved"; path: string; by: "realpath" | "filename" } | { status: "missing" };

/** pi's SessionInfo fields with pi's semantics, plus what a browser needs. */
export interface SessionSummary {
  path: string;
  id: string;
  cwd: string;
  name?: string;
  parentSessionPath?: string;
  created: Date;
  modified: Date;
  messageCount: number;
  firstMessage: string;
  bytes: number;
  mtimeMs: number;
  /** The file's ctime when it was read (with bytes and mtimeMs, what the index checks it by); absent when not known. */
  ctimeMs?: number;
  version: number;
  entryCount: number;
  leafCount: number;
  labelCount: number;
  /** The labels' texts (what `label:TEXT` searches); absent in summaries made before they were kept. */
  labels?: string[];
  models: string[];
  tokens: TokenTotals;
  cost: number;
  /**
   * The same totals split by local day and model (src/usage/): each usage by its own
   * entry's time and model. Absent on a provisional (probed) session.
   */
  usage?: UsageSlice[];
  warnings: string[];
  lineage: Lineage;
}

/** Usage of one session on one local day (YYYY-MM-DD) with one model. */
export interface UsageSlice {
  day: string;
  model: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
}

/** What the bounded header probe knows before the full scan. */
export interface SessionProbe {
  path: string;
  id: string;
  cwd: string;
  created: Date;
  parentSessionPath?: string;
  /** First user message when it lies inside the probed bytes. */
  firstMessage?: string;
  name?: string;
  bytes: number;
  mtimeMs: number;
}

export type DiagnosticKind = "not-a-session" | "empty" | "unreadable" | "unreadable-folder" | "not-listed-by-pi";

/** A file or folder of the store that is not listed as a session, and why. */
export interface Diagnostic {
  path: string;
  kind: DiagnosticKind;
  reason: string;
}

/** One entry of a session as the tree and `show` need it: light, with where to read the rest. */
export interface EntryNode {
  id: string;
  parentId: string | null;
  type: string;
  timestamp: string;
  role?: string;
  /** Display text (first characters only); undefined when the line was not fully parsed. */
  text?: string;
  /** Line number (1-based) and byte range of the line in the file. */
  line: number;
  offset: number;
  length: number;
  /** Assistant: the message has text (pi's tree hides tool-call-only turns). */
  hasText?: boolean;
  stopReason?: string;
  /** Assistant: its tool calls, as `[toolCallId, "bash: npm test"]`. */
  toolCalls?: [string, string][];
  /** toolResult: which call it answers, and the tool. */
  toolCallId?: string;
  toolName?: string;
  /** custom, custom_message: the extension's type. */
  customType?: string;
  /** compaction: context size before it. */
  tokensBefore?: number;
  /** model_change: the new model; assistant: the model that answered. */
  model?: string;
  /** Usage recorded on this entry (assistant, toolResult, usage, compaction, branch_summary). */
  usage?: UsageNumbers;
  /** usage: its kind (`cache_warm`, …) and model. */
  usageKind?: string;
  /** compaction: where the kept part starts, and whether it carries a system message. */
  firstKeptEntryId?: string;
  systemMessage?: boolean;
  /** context_edit, label: the entry it applies to. */
  targetId?: string;
  /** context_edit: omit the target from the model's context, or replace its content. */
  edit?: "omit" | "replace";
  /** context_edit replace: the replacement's text (up to 100,000 characters). */
  editText?: string;
}

export interface UsageNumbers {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
  /** Figures written that the usage rule left out (negative, non-finite, too large): src/model/usage-figure.ts. */
  ignored?: number;
}
