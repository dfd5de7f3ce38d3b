import { usageFigure } from "./usage-figure.js";
import { applyLabel, nameFrom } from "./resolve.js";
import { messageText } from "./text.js";
import { LocalDays } from "./local-day.js";
import type { SessionEntry, SessionHeader, SessionSummary, TokenTotals, UsageSlice } from "./types.js";

const num = (v: unknown): number => usageFigure(v) ?? 0;

/**
 * Bumped whenever what SummaryBuilder makes of a file changes: the persistent index
 * (src/index) drops the summaries it kept from another format and reads those files again.
 */
export const SUMMARY_FORMAT = 1;

/**
 * Accumulates pi's SessionInfo (same semantics as SessionManager.list) plus pi-sessions'
 * extras while a file streams by, holding only ids, never entry bodies. The reader
 * (src/store/session-reader.ts) feeds it as its EntrySink, by shape: the model does not know the store.
 */
export class SummaryBuilder {
  name: string | undefined;
  messageCount = 0;
  firstMessage = "";
  lastActivity: number | undefined;
  private parents = new Map<string, string | null>();
  private labels = new Map<string, string>();
  private models = new Set<string>();
  tokens: TokenTotals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  cost = 0;
  /** The totals by local day and model ("day\0model" → slice), for `stats` and `U`. */
  private slices = new Map<string, UsageSlice>();
  private last: UsageSlice | undefined;
  private days = new LocalDays();
  /** The model in use at this point of the file: the last model_change or reply's model. */
  private model = "";
  /** Why pi 1.5.2 leaves this file out of its lists (its SessionInfo reader throws on it). */
  unlisted: string | undefined;

  /** pi's /session rule (AgentSession.getSessionStats): every usage the file records. */
  // A usage counts on the day of its own entry and for the model that entry names (assistant
  // replies and usage entries do), else the model in use at that point of the file.
  private addUsage(u: unknown, time: number, model: unknown): void {
    if (!u || typeof u !== "object") return;
    const r = u as Record<string, unknown>;
    const input = num(r.input);
    const output = num(r.output);
    const cacheRead = num(r.cacheRead);
    const cacheWrite = num(r.cacheWrite);
    this.tokens.input += input;
    this.tokens.output += output;
    this.tokens.cacheRead += cacheRead;
    this.tokens.cacheWrite += cacheWrite;
    this.tokens.total = this.tokens.input + this.tokens.output + this.tokens.cacheRead + this.tokens.cacheWrite;
    const c = r.cost as Record<string, unknown> | undefined;
    const cost = c && typeof c === "object" ? num(c.total) : 0;
    this.cost += cost;
    const day = this.days.of(time);
    const m = typeof model === "string" && model ? model : this.model;
    // Runs of usage share a day and model: the last slice is nearly always the one.
    let slice = this.last;
    if (!slice || slice.day !== day || slice.model !== m) {
      const key = `${day}\0${m}`;
      slice = this.slices.get(key);
      if (!slice) {
        slice = { day, model: m, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
        this.slices.set(key, slice);
      }
      this.last = slice;
    }
    slice.input += input;
    slice.output += output;
    slice.cacheRead += cacheRead;
    slice.cacheWrite += cacheWrite;
    slice.cost += cost;
  }

  entry(entry: SessionEntry): void {
    this.parents.set(entry.id, entry.parentId);
    switch (entry.type) {
      case "usage":
        this.addUsage(entry.usage, Date.parse(entry.timestamp), entry.model);
        return;
      case "compaction":
      case "branch_summary":
        this.addUsage(entry.usage, Date.parse(entry.timestamp), undefined);
        return;
      case "session_info":
        this.name = nameFrom(entry);
        return;
      case "label":
        applyLabel(this.labels, entry);
        return;
      case "model_change":
        if (typeof entry.modelId === "string") {
          this.models.add(entry.modelId);
          this.model = entry.modelId;
        }
        return;
      case "message":
        this.message(entry);
        return;
    }
  }

  private message(entry: SessionEntry): void {
    this.messageCount++;
    const m = entry.message;
    if (!m || typeof m !== "object") {
      this.unlisted ??= `entry ${entry.id} has no message object`;
      return;
    }
    if (m.role === "assistant" && typeof m.model === "string") {
      this.models.add(m.model);
      if (m.model) this.model = m.model;
    }
    if ((m.role === "toolResult" || m.role === "assistant") && m.usage) {
      this.addUsage(m.usage, typeof m.timestamp === "number" ? m.timestamp : Date.parse(entry.timestamp), undefined);
    }
    if (m.role !== "user" && m.role !== "assistant") return;
    if (!("content" in m)) return;
    // pi reads a message's text from a string or an array of blocks; anything else (null
    // content, a null block) makes its list reader fail, and the session is not listed.
    const content = m.content;
    if (
      typeof content !== "string" &&
      (!Array.isArray(content) || content.some((b) => b === null || b === undefined))
    ) {
      this.unlisted ??= `the ${m.role} message ${entry.id} has content ${content === null ? "null" : "pi cannot read"}`;
    }
    // pi's getLastActivityTime: message epoch ms, else the entry's ISO timestamp.
    if (typeof m.timestamp === "number") {
      this.lastActivity = Math.max(this.lastActivity ?? 0, m.timestamp);
    } else {
      const t = new Date(entry.timestamp).getTime();
      if (!Number.isNaN(t)) this.lastActivity = Math.max(this.lastActivity ?? 0, t);
    }
    if (!this.firstMessage && m.role === "user") {
      const text = messageText(m.content);
      if (text) this.firstMessage = text;
    }
  }

  /** Call with the header and file facts once the file has been read. */
  finish(args: {
    path: string;
    header: SessionHeader;
    bytes: number;
    mtimeMs: number;
    ctimeMs?: number;
    version: number;
    warnings: string[];
  }): SessionSummary {
    const { header } = args;
    const parentIds = new Set<string>();
    for (const p of this.parents.values()) if (p !== null) parentIds.add(p);
    let leafCount = 0;
    for (const id of this.parents.keys()) if (!parentIds.has(id)) leafCount++;
    const headerTime = typeof header.timestamp === "string" ? new Date(header.timestamp).getTime() : NaN;
    const modified =
      this.lastActivity !== undefined && this.lastActivity > 0
        ? new Date(this.lastActivity)
        : !Number.isNaN(headerTime)
          ? new Date(headerTime)
          : new Date(args.mtimeMs);
    return {
      path: args.path,
      id: header.id,
      cwd: typeof header.cwd === "string" ? header.cwd : "",
      name: this.name,
      parentSessionPath: typeof header.parentSession === "string" ? header.parentSession : undefined,
      created: new Date(typeof header.timestamp === "string" ? header.timestamp : NaN),
      modified,
      messageCount: this.messageCount,
      firstMessage: this.firstMessage || "(no messages)",
      bytes: args.bytes,
      mtimeMs: args.mtimeMs,
      ...(args.ctimeMs === undefined ? {} : { ctimeMs: args.ctimeMs }),
      version: args.version,
      entryCount: this.parents.size,
      leafCount,
      labelCount: this.labels.size,
      labels: [...this.labels.values()],
      models: [...this.models],
      tokens: { ...this.tokens },
      cost: this.cost,
      usage: [...this.slices.values()],
      warnings: args.warnings,
      lineage: header.parentSession ? { status: "missing" } : { status: "none" },
    };
  }
}
