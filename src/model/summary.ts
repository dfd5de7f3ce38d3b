import type { EntrySink } from "../store/session-reader.js";
import { applyLabel, nameFrom } from "./resolve.js";
import { messageText } from "./text.js";
import type { SessionEntry, SessionHeader, SessionSummary, TokenTotals } from "./types.js";

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/**
 * Accumulates pi's SessionInfo (same semantics as SessionManager.list) plus pi-sessions'
 * extras while a file streams by, holding only ids, never entry bodies.
 */
export class SummaryBuilder implements EntrySink {
  name: string | undefined;
  messageCount = 0;
  firstMessage = "";
  lastActivity: number | undefined;
  private parents = new Map<string, string | null>();
  private labels = new Map<string, string>();
  private models = new Set<string>();
  tokens: TokenTotals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  cost = 0;

  entry(entry: SessionEntry): void {
    this.parents.set(entry.id, entry.parentId);
    switch (entry.type) {
      case "session_info":
        this.name = nameFrom(entry);
        return;
      case "label":
        applyLabel(this.labels, entry);
        return;
      case "model_change":
        if (typeof entry.modelId === "string") this.models.add(entry.modelId);
        return;
      case "message":
        this.message(entry);
        return;
    }
  }

  private message(entry: SessionEntry): void {
    this.messageCount++;
    const m = entry.message;
    if (!m || typeof m !== "object") return;
    if (m.role !== "user" && m.role !== "assistant") return;
    if (!("content" in m)) return;
    if (m.role === "assistant") {
      if (typeof m.model === "string") this.models.add(m.model);
      const u = m.usage as Record<string, unknown> | undefined;
      if (u && typeof u === "object") {
        this.tokens.input += num(u.input);
        this.tokens.output += num(u.output);
        this.tokens.cacheRead += num(u.cacheRead);
        this.tokens.cacheWrite += num(u.cacheWrite);
        this.tokens.total += num(u.totalTokens) || num(u.input) + num(u.output) + num(u.cacheRead) + num(u.cacheWrite);
        const c = u.cost as Record<string, unknown> | undefined;
        if (c && typeof c === "object") this.cost += num(c.total);
      }
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
  finish(args: { path: string; header: SessionHeader; bytes: number; mtimeMs: number; version: number; warnings: string[] }): SessionSummary {
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
      version: args.version,
      entryCount: this.parents.size,
      leafCount,
      labelCount: this.labels.size,
      labels: [...this.labels.values()],
      models: [...this.models],
      tokens: { ...this.tokens },
      cost: this.cost,
      warnings: args.warnings,
      lineage: header.parentSession ? { status: "missing" } : { status: "none" },
    };
  }
}
