import { hash } from "node:crypto";
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, utimesSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { ForkResult } from "../actions/fork.js";
import type { TrashRecord } from "../actions/trash/index.js";
import type { LifecycleDeps } from "../browser/lifecycle/lifecycleEffects.js";
import type { DeleteTarget } from "../browser/lifecycle/lifecycleTypes.js";
import type { HostUpdate, HostView } from "../browser/list/hosts.js";
import type { ListedSession } from "../browser/list/sessions.js";
import type { TreeIO } from "../browser/tree/treeRunner.js";
import type { TrashIO } from "../browser/trash/trashRunner.js";
import type { TrashItem } from "../browser/trash/trashTypes.js";
import { type FullTextFn, textTerms } from "../search/fulltext.js";
import type { FileIdentity } from "../store/file-identity.js";
import type { SessionEntry, SessionSummary, UsageSlice } from "../model/types.js";
import { sanitizeLine } from "../text/sanitize.js";
import { runOnTerminal, type PiRun } from "../pi/spawn-pi.js";
import { RemoteClient, RemoteError, type EarlyRequest } from "./client.js";
import {
  hostCacheDir,
  LIST_PACKED,
  listRows,
  readKeptList,
  touchKeptList,
  usageByPath,
  writeKeptList,
  type KeptList,
  remoteSettings,
  type RemoteSettings,
} from "./hosts.js";
import { READ_CHUNK } from "./protocol.js";
import { trace } from "../launcher/trace.js";
import { remoteResumeLine, sshArgv } from "./ssh.js";

/*
 * The browser's other machines. Each host's rows are its `list` answer, kept in the local
 * cache and shown at once at the next launch (marked with their age) until the live answer
 * replaces them; nothing the list or the keys do waits for a host. A host's session is
 * read through a copy of its file on this machine (in the cache folder, updated from where
 * it ended at each look), so the preview, the reader, the tree and exports read it as they
 * read any file; every write goes to the host and is carried out there, by its pi-sessions,
 * naming the file as it was read. A host that does not answer is "unreachable": its kept
 * rows stay, read-only.
 */

export type { HostUpdate };

/** The best hits a host's search reports for the browser's list (its own ranking, there). */
const REMOTE_HITS = 200;

/** A host's answer is written to the cache this long after its rows were drawn. */
const KEEP_AFTER_MS = 300;

/**
 * A host's answer waits at most this long for another host's list answer that is on its way
 * (that host said its hello, its list is asked), so that both go to the list together: one
 * refresh, one frame.
 */
const TOGETHER_MS = 150;
/** How often a held answer looks whether the other one has come. */
const TOGETHER_LOOK_MS = 4;

/** Seconds between two looks at a host that answered (a list with the kept hash: a few bytes when nothing changed). */
const POLL_MS = 20_000;

interface Slot {
  name: string;
  view: HostView;
  client?: RemoteClient;
  opening?: Promise<RemoteClient>;
  /** The hash of the rows shown, for the next `list` (unchanged: a few bytes). */
  hash?: string;
  rows: ListedSession[];
  /** List requests out (a launch's, a look, a refresh after a write). */
  listing: number;
  /** The list hash whose rows carry the host's usage (asked once the usage view counts every host). */
  usageOf?: string;
  counting?: Promise<void>;
}

/** Where a copy of a host's file is, and what it is a copy of. */
interface Mirror {
  host: string;
  remotePath: string;
  /** The host's file as last read (its inode, size, mtime), once read. */
  read?: FileIdentity;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * The browser's hosts, connecting at once unless every host's rows are kept (then the first
 * frame comes first, and the browser starts them): called before the UI loads, so ssh and
 * the hosts' pi-sessions start while it does.
 */
export function startHosts(hosts: readonly string[], env: NodeJS.ProcessEnv, sshSetting?: string): RemoteHosts {
  const remote = new RemoteHosts(hosts, remoteSettings(env, sshSetting), env);
  if (!remote.allKept) remote.start();
  return remote;
}

export class RemoteHosts {
  private readonly slots = new Map<string, Slot>();
  private readonly mirrors = new Map<string, Mirror>();
  private readonly fetching = new Map<string, Promise<void>>();
  private readonly listeners = new Set<(u: readonly HostUpdate[]) => void>();
  /** What hosts said that the browser has not been told yet (told together: see tell). */
  private readonly untold = new Map<string, HostUpdate>();
  /** Stops the tell to come (an immediate, or a timer while it waits for another answer). */
  private tellLater?: () => void;
  private heldSince = 0;
  /** What the browser was last told of each host (its state and rows). */
  private readonly told = new Map<string, { view: HostView; rows: ListedSession[] }>();
  /** Records of this run's deletes on hosts: the copy's path → the host's record. */
  private readonly records = new Map<string, { host: string; record: TrashRecord }>();
  private timer?: NodeJS.Timeout;
  private started = false;
  /** Aborted at close: connections still starting are stopped, none is started after. */
  private readonly closing = new AbortController();
  /** Each host's answer to keep, written a moment after its rows went to the screen (or at close). */
  private readonly toKeep = new Map<string, KeptList>();
  private keepTimer?: NodeJS.Timeout;
  /** Each host's folder of copies. */
  private readonly filesDirs = new Map<string, string>();
  /** The usage view has counted every host: each host's usage is asked for, and again when its rows change. */
  private usageWanted = false;

  constructor(
    hosts: readonly string[],
    private readonly settings: RemoteSettings,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** How a conversation is opened (ssh; tests give in-memory ones). */
    private readonly open: typeof RemoteClient.open = (...a) => RemoteClient.open(...a),
  ) {
    for (const name of hosts) {
      const kept = readKeptList(env, name);
      const slot: Slot = {
        name,
        view: { name, state: "connecting", ...(kept ? { at: kept.at } : {}) },
        rows: [],
        listing: 0,
        ...(kept ? { hash: kept.hash } : {}),
      };
      if (kept) slot.rows = this.rowsOf(name, kept.sessions);
      this.slots.set(name, slot);
    }
  }

  get names(): string[] {
    return [...this.slots.keys()];
  }

  /** Every host has rows kept from an earlier answer. */
  get allKept(): boolean {
    return [...this.slots.values()].every((s) => s.view.at !== undefined);
  }

  /** What is known now, for a browser's first state: each host's rows (kept ones, marked with their age, until it answers). */
  initial(): { hosts: HostView[]; sessions: ListedSession[] } {
    const slots = [...this.slots.values()];
    for (const s of slots) this.told.set(s.name, { view: s.view, rows: s.rows });
    return { hosts: slots.map((s) => s.view), sessions: slots.flatMap((s) => s.rows) };
  }

  /**
   * Each host's state and rows as they change, several hosts' at once when they answered at
   * once; the returned function stops it. What changed since initial() (answers that came
   * while the browser was loading) is said at once, in one call.
   */
  subscribe(fn: (u: readonly HostUpdate[]) => void): () => void {
    this.listeners.add(fn);
    const updates: HostUpdate[] = [];
    for (const s of this.slots.values()) {
      const t = this.told.get(s.name);
      const rows = t?.rows !== s.rows;
      if (t && t.view === s.view && !rows) continue;
      this.told.set(s.name, { view: s.view, rows: s.rows });
      this.untold.delete(s.name);
      updates.push({ host: s.view, ...(rows ? { sessions: s.rows } : {}) });
    }
    if (updates.length) fn(updates);
    return () => this.listeners.delete(fn);
  }

  /** Asks every host, once (again later after a look every POLL_MS); answers come to the subscribers. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const name of this.slots.keys()) void this.refresh(name);
    this.timer = setInterval(() => {
      for (const s of this.slots.values()) if (!s.opening) void this.refresh(s.name);
    }, POLL_MS);
    this.timer.unref();
  }

  /** Tells the browser, on the next turn (none while it loads: it is told when it subscribes). */
  private say(slot: Slot, sessions?: ListedSession[]): void {
    if (!this.listeners.size) return;
    this.told.set(slot.name, { view: slot.view, rows: slot.rows });
    // Rows said and not told yet stay with a later state of the same host.
    const rows = sessions ?? this.untold.get(slot.name)?.sessions;
    this.untold.set(slot.name, { host: slot.view, ...(rows ? { sessions: rows } : {}) });
    if (this.tellLater) return;
    this.heldSince = Date.now();
    // After the answers read in this turn (and before a frame Ink put off: its timer comes later).
    const i = setImmediate(() => this.tell());
    this.tellLater = () => clearImmediate(i);
  }

  /**
   * What hosts said, in one update: answers read in the same turn go together, and one waits
   * (TOGETHER_MS at most) for another host's list answer on its way (a host still connecting
   * is not waited for). Each host's rows cost the list a refresh and the screen a frame; two
   * hosts that answer at once (a launch) cost one. Keys are not held: this is a timer, and
   * they run between.
   */
  private tell(): void {
    this.tellLater = undefined;
    const arriving = [...this.slots.values()].some((s) => s.listing > 0 && s.client && !s.client.ended);
    if (arriving && Date.now() - this.heldSince < TOGETHER_MS) {
      const t = setTimeout(() => this.tell(), TOGETHER_LOOK_MS);
      this.tellLater = () => clearTimeout(t);
      return;
    }
    const updates = [...this.untold.values()];
    this.untold.clear();
    if (updates.length) for (const fn of this.listeners) fn(updates);
  }

  private unreachable(slot: Slot, e: unknown): void {
    const why = sanitizeLine(e instanceof Error ? e.message : String(e));
    slot.view = { name: slot.name, state: "unreachable", why, ...(slot.view.at ? { at: slot.view.at } : {}) };
    this.say(slot);
  }

  /**
   * The conversation with a host: the open one, or a new one (ssh started, its hello
   * awaited). A new one carries `early` with its start (RemoteClient.takeEarly).
   */
  private client(slot: Slot, early?: EarlyRequest): Promise<RemoteClient> {
    if (slot.client && !slot.client.ended) return Promise.resolve(slot.client);
    if (this.closing.signal.aborted) return Promise.reject(new RemoteError(slot.name, "unreachable", "closed"));
    const { ssh, client } = this.settings;
    const signal = this.closing.signal;
    slot.opening ??= this.open(slot.name, ssh, client, this.env, early ? [early] : [], signal).then(
      (c) => {
        slot.client = c;
        slot.opening = undefined;
        c.onEnd = (e) => {
          if (slot.client === c) this.unreachable(slot, e);
        };
        return c;
      },
      (e: unknown) => {
        slot.opening = undefined;
        throw e;
      },
    );
    return slot.opening;
  }

  /** Asks a host for its list again (after a write there, or to look); its answer goes to the subscribers. */
  async refresh(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot) return;
    try {
      const params = { all: true, ...LIST_PACKED, ...(slot.hash ? { since: slot.hash } : {}) };
      // A new connection asks for the list as it starts (no round trip waiting for the hello).
      const c = await this.client(slot, { op: "list", params });
      slot.listing++;
      const r = await (c.takeEarly("list") ?? c.request("list", params)).finally(() => slot.listing--);
      const at = Date.now();
      const wasLive = slot.view.state === "live";
      if (r.unchanged === true && r.hash === slot.hash) {
        slot.view = { name, state: "live", at, ...(slot.view.noUsage ? { noUsage: slot.view.noUsage } : {}) };
        touchKeptList(this.env, name, at);
        // Nothing new: the rows shown stand (a state change is said, not every look).
        if (!wasLive) this.say(slot);
        if (this.usageWanted) void this.countUsage(slot);
        return;
      }
      const sessions = listRows(r);
      if (!sessions) throw new RemoteError(name, "garbage", `${name}: sent a list that is none`);
      slot.hash = String(r.hash);
      slot.rows = this.rowsOf(name, sessions);
      trace(`${name}: ${slot.rows.length} rows made`);
      slot.view = { name, state: "live", at };
      this.say(slot, slot.rows);
      // Kept for the next launch once the rows are on their way to the screen (its 2 MB written after).
      this.keep({ host: name, at, hash: slot.hash, sessions });
      if (this.usageWanted) void this.countUsage(slot);
    } catch (e) {
      this.unreachable(slot, e);
    }
  }

  /**
   * The usage view counts every host: each host that answers is asked for its sessions'
   * usage by day and model (not part of its list answer: most launches never open the view),
   * put on its rows, and asked again whenever its rows change.
   */
  countEveryHost(): void {
    this.usageWanted = true;
    for (const slot of this.slots.values()) void this.countUsage(slot);
  }

  private countUsage(slot: Slot): Promise<void> {
    slot.counting ??= this.askUsage(slot).finally(() => (slot.counting = undefined));
    return slot.counting;
  }

  private async askUsage(slot: Slot): Promise<void> {
    const c = slot.client;
    if (slot.view.state !== "live" || !c || c.ended) return;
    if (!c.can("usage")) {
      if (slot.view.noUsage) return;
      const noUsage = `${slot.name}: its pi-sessions (${sanitizeLine(c.hello.version)}) sends no usage: update it there`;
      slot.view = { ...slot.view, noUsage };
      this.say(slot);
      return;
    }
    for (;;) {
      const hash = slot.hash;
      if (hash !== undefined && slot.usageOf === hash) return;
      let byPath: Map<string, UsageSlice[]> | undefined;
      try {
        byPath = usageByPath(await c.request("usage"));
      } catch {
        // Not answering now: its rows stay uncounted, and the next answer asks again.
        return;
      }
      if (!byPath) return;
      // Rows that changed while it counted are asked about again (the loop).
      if (slot.hash !== hash) continue;
      slot.usageOf = hash;
      slot.rows = slot.rows.map((r) => ({ ...r, usage: byPath.get(r.remotePath ?? "") ?? [] }));
      this.say(slot, slot.rows);
      return;
    }
  }

  private keep(kept: KeptList): void {
    this.toKeep.set(kept.host, kept);
    this.keepTimer ??= setTimeout(() => this.writeKept(), KEEP_AFTER_MS);
  }

  private writeKept(): void {
    clearTimeout(this.keepTimer);
    this.keepTimer = undefined;
    for (const k of this.toKeep.values()) writeKeptList(this.env, k);
    this.toKeep.clear();
  }

  /** The copy of a host's file: in the cache folder, named by a hash of its path there (never by what the host says). */
  private mirrorPath(host: string, remotePath: string): string {
    let dir = this.filesDirs.get(host);
    if (!dir) {
      dir = join(hostCacheDir(this.env, host) ?? join(this.env.TMPDIR || "/tmp", "pi-sessions-remote"), "files");
      this.filesDirs.set(host, dir);
    }
    // One call, no Hash object: a launch names two hosts' 4,000 paths this way.
    const key = hash("sha256", remotePath).slice(0, 32);
    return join(dir, `${key}.jsonl`);
  }

  /** A host's list rows as the list holds sessions: each under its copy's path, labelled with its host. */
  private rowsOf(host: string, rows: readonly Record<string, unknown>[]): ListedSession[] {
    const out: ListedSession[] = [];
    for (const r of rows) {
      if (typeof r.path !== "string" || typeof r.id !== "string") continue;
      const path = this.mirrorPath(host, r.path);
      const known = this.mirrors.get(path);
      this.mirrors.set(path, { host, remotePath: r.path, ...(known?.read ? { read: known.read } : {}) });
      const parent = typeof r.parentSessionPath === "string" ? r.parentSessionPath : undefined;
      const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
      const s: ListedSession = {
        ...(r as unknown as SessionSummary),
        path,
        host,
        remotePath: r.path,
        id: r.id,
        cwd: typeof r.cwd === "string" ? r.cwd : "",
        name: typeof r.name === "string" ? r.name : undefined,
        firstMessage: typeof r.firstMessage === "string" ? r.firstMessage : "",
        parentSessionPath: parent ? this.mirrorPath(host, parent) : undefined,
        created: new Date(String(r.created)),
        modified: new Date(String(r.modified)),
        mtimeMs: num(r.mtimeMs) || Date.parse(String(r.modified)) || 0,
        bytes: num(r.bytes),
        messageCount: num(r.messageCount),
        models: Array.isArray(r.models) ? r.models.filter((m): m is string => typeof m === "string") : [],
        warnings: Array.isArray(r.warnings) ? r.warnings.filter((w): w is string => typeof w === "string") : [],
        lineage: { status: "none" },
      };
      out.push(s);
    }
    return out;
  }

  /** The host and path there of a copy's path; undefined for this machine's files. */
  owns(path: string): { host: string; remotePath: string } | undefined {
    const m = this.mirrors.get(path);
    return m && { host: m.host, remotePath: m.remotePath };
  }

  /** `HOST:PATH`, as scp names it: what the picker prints for a host's session. */
  printName(path: string): string | undefined {
    const m = this.owns(path);
    return m && `${m.host}:${m.remotePath}`;
  }

  /**
   * Brings the copy of a host's file up to date: the bytes after those it holds, or the
   * whole file when the host's is another one (replaced, or shorter). Without an answer the
   * copy there is (kept rows of an unreachable host), it is read as it is.
   */
  mirror(path: string): Promise<void> {
    const m = this.mirrors.get(path);
    if (!m) return Promise.resolve();
    let running = this.fetching.get(path);
    if (!running) {
      running = this.fetch(path, m).finally(() => this.fetching.delete(path));
      this.fetching.set(path, running);
    }
    return running;
  }

  private async fetch(path: string, m: Mirror): Promise<void> {
    const slot = this.slots.get(m.host)!;
    const have = (() => {
      try {
        return statSync(path).size;
      } catch {
        return -1;
      }
    })();
    if (slot.view.state === "unreachable" && have >= 0) return;
    let c: RemoteClient;
    try {
      c = await this.client(slot);
    } catch (e) {
      if (have >= 0) return;
      throw e;
    }
    mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
    let offset = have >= 0 && m.read ? have : 0;
    let tmp: string | undefined;
    let fd: number | undefined;
    try {
      for (;;) {
        const r = await c.request("read", {
          path: m.remotePath,
          offset,
          ...(m.read ? { ino: m.read.ino } : {}),
          length: READ_CHUNK,
        });
        const data = Buffer.from(String(r.data ?? ""), "base64");
        const at = Number(r.offset);
        if (fd === undefined) {
          if (at === 0) {
            // A fresh copy: written beside the old one, then put in its place.
            tmp = `${path}.${process.pid}.tmp`;
            fd = openSync(tmp, "w", 0o600);
          } else fd = openSync(path, "a", 0o600);
        }
        if (data.length) writeSync(fd, data);
        offset = at + data.length;
        m.read = { ino: Number(r.ino), bytes: Number(r.bytes), mtimeMs: Number(r.mtimeMs) };
        if (data.length < READ_CHUNK || offset >= Number(r.bytes)) break;
      }
      closeSync(fd!);
      fd = undefined;
      if (tmp) renameSync(tmp, path);
      tmp = undefined;
      // The copy's mtime is the host file's: "written in the last 10 s: pi may have it open" holds for it too.
      const t = m.read!.mtimeMs / 1000;
      utimesSync(path, t, t);
    } finally {
      if (fd !== undefined) closeSync(fd);
      if (tmp) rmSync(tmp, { force: true });
    }
  }

  /** The answer of a write on a host (its conversation, opened if need be). */
  private async ask(host: string, op: Parameters<RemoteClient["request"]>[0], params: Record<string, unknown>) {
    const slot = this.slots.get(host)!;
    return (await this.client(slot)).request(op, params);
  }

  /** The file operations of rename, delete and undo: a host's session's done there. */
  lifecycle(base: LifecycleDeps): LifecycleDeps {
    return {
      ...base,
      rename: async (path, name) => {
        const m = this.owns(path);
        if (!m) return base.rename(path, name);
        const r = await this.ask(m.host, "rename", { path: m.remotePath, name });
        void this.refresh(m.host);
        const st = isObject(r.stamp) ? r.stamp : {};
        return {
          name: typeof r.name === "string" ? r.name : "",
          ...(typeof st.bytes === "number" && typeof st.mtimeMs === "number"
            ? { stamp: { bytes: st.bytes, mtimeMs: st.mtimeMs } }
            : {}),
        };
      },
      trash: (targets) => this.trashAll(base, targets),
      deletePermanently: (targets) => {
        const m = targets.length === 1 ? this.owns(targets[0].path) : undefined;
        if (!m) return base.deletePermanently(targets);
        return this.ask(m.host, "delete", { targets: [this.target(targets[0], m.remotePath)], permanent: true }).then(
          () => {
            void this.refresh(m.host);
            return [targets[0].path];
          },
        );
      },
      restore: (record) => {
        const r = this.hostRecord(record);
        if (!r) return base.restore(record);
        return this.ask(r.host, "restore", {
          record: { original: r.record.original, trashedFile: r.record.trashedFile },
        }).then(() => {
          void this.refresh(r.host);
        });
      },
    };
  }

  /**
   * The trash view: this machine's trash by `base`, and each host's that answers (one that
   * does not has none shown), restored and deleted for good there, by its pi-sessions, which
   * finds the record in its own trash log (a host's answer never names a file here).
   */
  trashIO(base: TrashIO): TrashIO {
    return {
      ...base,
      listHosts: () =>
        [...this.slots.values()].filter((s) => s.view.state !== "unreachable").map((s) => this.hostTrash(s.name)),
      purge: (record) => {
        const r = this.hostRecord(record);
        if (!r) return base.purge(record);
        const { original, trashedFile } = r.record;
        return this.ask(r.host, "trash", { purge: { original, trashedFile } }).then(() => {});
      },
    };
  }

  /**
   * The host's record a trash row stands for; undefined for this machine's. A row of a host
   * that its trash no longer lists is refused: a host's record is never restored or deleted
   * here (its paths are the host's).
   */
  private hostRecord(record: TrashRecord & { host?: string }): { host: string; record: TrashRecord } | undefined {
    const r = this.records.get(`${record.original}\0${record.trashedFile}`);
    if (!r && record.host) throw new Error(`${record.host}: not in its trash as listed`);
    return r;
  }

  /** A host's trashed sessions, each under its copy's path here (what the list and a restore name it by). */
  private async hostTrash(host: string): Promise<TrashItem[]> {
    const r = await this.ask(host, "trash", {});
    const out: TrashItem[] = [];
    for (const rec of Array.isArray(r.records) ? r.records.filter(isObject) : []) {
      if (typeof rec.original !== "string" || typeof rec.trashedFile !== "string" || typeof rec.deletedAt !== "string")
        continue;
      const there = rec as unknown as TrashRecord;
      const copy = this.mirrorPath(host, there.original);
      this.records.set(`${copy}\0${there.trashedFile}`, { host, record: there });
      out.push({
        ...there,
        bytes: typeof there.bytes === "number" ? there.bytes : 0,
        title: typeof there.title === "string" ? there.title : undefined,
        cwd: typeof there.cwd === "string" ? there.cwd : undefined,
        original: copy,
        host,
        hostPath: there.original,
      });
    }
    return out;
  }

  /** A delete target as the host takes it: its path there, and the size and mtime the user saw. */
  private target(t: DeleteTarget, remotePath: string): Record<string, unknown> {
    return { path: remotePath, bytes: t.bytes, mtimeMs: t.mtimeMs, ...(t.title ? { title: t.title } : {}) };
  }

  /** Marked sessions may lie on several machines: each machine's moved by its own trash. */
  private async trashAll(
    base: LifecycleDeps,
    targets: DeleteTarget[],
  ): Promise<{ records: TrashRecord[]; failed?: { path: string; error: Error } }> {
    const local = targets.filter((t) => !this.owns(t.path));
    const records: TrashRecord[] = [];
    let failed: { path: string; error: Error } | undefined;
    if (local.length) {
      const r = await base.trash(local);
      records.push(...r.records);
      failed = r.failed;
    }
    const byHost = new Map<string, DeleteTarget[]>();
    for (const t of targets) {
      const m = this.owns(t.path);
      if (m) byHost.set(m.host, [...(byHost.get(m.host) ?? []), t]);
    }
    for (const [host, list] of byHost) {
      if (failed) break;
      const back = new Map(list.map((t) => [this.owns(t.path)!.remotePath, t.path]));
      try {
        const r = await this.ask(host, "delete", {
          targets: list.map((t) => this.target(t, this.owns(t.path)!.remotePath)),
        });
        for (const rec of Array.isArray(r.records) ? r.records.filter(isObject) : []) {
          const there = rec as unknown as TrashRecord;
          const copy = back.get(there.original);
          if (!copy) continue;
          // The record as the list knows it: under the copy's path; the host's kept for the undo.
          const mine = { ...there, original: copy };
          this.records.set(`${copy}\0${there.trashedFile}`, { host, record: there });
          records.push(mine);
        }
        if (isObject(r.failed)) {
          const f = r.failed;
          const error = new Error(`${host}: ${sanitizeLine(String(f.message ?? "not moved"))}`);
          if (typeof f.name === "string") error.name = f.name;
          failed = { path: back.get(String(f.path)) ?? list[0].path, error };
        }
      } catch (e) {
        failed = { path: list[0].path, error: e instanceof Error ? e : new Error(String(e)) };
      }
      void this.refresh(host);
    }
    return { records, ...(failed ? { failed } : {}) };
  }

  /** The tree's loads and writes: a host's session read through its copy, written there. */
  treeIO(base: TreeIO): TreeIO {
    const expect = (path: string) => this.mirrors.get(path)?.read;
    const after = async (path: string, host: string) => {
      await this.mirror(path).catch(() => {});
      void this.refresh(host);
    };
    return {
      ...base,
      loadIndex: async (path) => {
        await this.mirror(path);
        return base.loadIndex(path);
      },
      // The host's file's own mtime (its copy's is the same to the second, not to the fraction).
      mtimeMs: async (path) => {
        if (!this.owns(path)) return base.mtimeMs(path);
        await this.mirror(path);
        return this.mirrors.get(path)?.read?.mtimeMs ?? base.mtimeMs(path);
      },
      label: async (path, entryId, label) => {
        const m = this.owns(path);
        if (!m) return base.label(path, entryId, label);
        const r = await this.ask(m.host, "label", { path: m.remotePath, entryId, label, expect: expect(path) });
        await after(path, m.host);
        return { type: "label", label: r.label ?? undefined } as unknown as SessionEntry;
      },
      navigate: async (path, entryId) => {
        const m = this.owns(path);
        if (!m) return base.navigate(path, entryId);
        const r = await this.ask(m.host, "navigate", { path: m.remotePath, entryId, expect: expect(path) });
        await after(path, m.host);
        return r.wrote ? ({ type: "custom" } as unknown as SessionEntry) : null;
      },
      fork: async (path, entryId) => {
        const m = this.owns(path);
        if (!m) return base.fork(path, entryId);
        const r = await this.ask(m.host, "fork", { path: m.remotePath, entryId, expect: expect(path) });
        if (typeof r.path !== "string")
          throw new RemoteError(m.host, "garbage", `${m.host}: no fork path in its answer`);
        const copy = this.mirrorPath(m.host, r.path);
        this.mirrors.set(copy, { host: m.host, remotePath: r.path });
        await this.mirror(copy);
        void this.refresh(m.host);
        return { path: copy, id: "", entries: 0, labels: 0 } satisfies ForkResult;
      },
      cwdExists: (dir, path) => (path && this.owns(path) ? true : (base.cwdExists?.(dir, path) ?? true)),
      ...(base.piProblem
        ? { piProblem: (path?: string) => (path && this.owns(path) ? undefined : base.piProblem?.(path)) }
        : {}),
    };
  }

  /** A loader (the preview's, the reader's): a host's session read from its copy, brought up to date first. */
  load<T>(base: (path: string) => Promise<T>): (path: string) => Promise<T> {
    return async (path) => {
      await this.mirror(path);
      return base(path);
    };
  }

  /**
   * The full-text search: this machine's files by `base`; each host's by its own search
   * there (the words as typed, `text()`), its best hits among the sessions asked about
   * reported as matches with their first snippet. A host that does not answer has none.
   */
  fullText(base: FullTextFn, text: () => string): FullTextFn {
    const search: FullTextFn = async (targets, query, opts) => {
      const local = targets.filter((t) => !this.owns(t.path));
      const byHost = new Map<string, Map<string, string>>();
      for (const t of targets) {
        const m = this.owns(t.path);
        if (m) byHost.set(m.host, (byHost.get(m.host) ?? new Map<string, string>()).set(m.remotePath, t.path));
      }
      let matched = 0;
      const there = [...byHost].map(async ([host, paths]) => {
        const slot = this.slots.get(host);
        if (!slot || slot.view.state !== "live") return;
        try {
          const r = await this.ask(host, "search", {
            query: text(),
            all: true,
            limit: REMOTE_HITS,
            ...(opts.includeTools ? { tools: true } : {}),
          });
          if (opts.signal?.aborted || !Array.isArray(r.json)) return;
          for (const hit of r.json.filter(isObject)) {
            const copy = typeof hit.path === "string" ? paths.get(hit.path) : undefined;
            const first = Array.isArray(hit.snippets) ? hit.snippets.find(isObject) : undefined;
            if (!copy || !first || first.entryId === null || typeof first.text !== "string") continue;
            matched++;
            // The host searched every word there: it holds them all.
            opts.onMatch(
              copy,
              first.text,
              textTerms(query).map(() => true),
            );
          }
        } catch {
          // Not answering now: its rows match by their fields only.
        }
      });
      const [mine] = await Promise.all([base(local, query, opts), ...there]);
      return { ...mine, searched: mine.searched + targets.length - local.length, matched: mine.matched + matched };
    };
    if (base.debounceMs !== undefined) search.debounceMs = Math.max(base.debounceMs, 150);
    return search;
  }

  /** Runs pi on the host in the session's folder, on this terminal: `ssh -t HOST 'cd <cwd> && pi --session <path>'`. */
  resume(path: string, cwd: string, fork = false): Promise<PiRun> {
    const m = this.owns(path);
    if (!m) return Promise.reject(new Error(`not a host's session: ${path}`));
    const [program, args] = sshArgv(m.host, remoteResumeLine(cwd, m.remotePath, ["pi"], fork), {
      ...this.settings.ssh,
      tty: true,
    });
    return runOnTerminal(program, args, { env: this.env }, (e) => `could not run ssh: ${e.message}`);
  }

  /** Ends every conversation (each host's serve sees its input end). */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.tellLater?.();
    this.closing.abort();
    this.writeKept();
    for (const s of this.slots.values()) s.client?.close();
  }
}
