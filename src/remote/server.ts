import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, statSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { deflateRawSync } from "node:zlib";
import { forkAtEntry } from "../actions/fork.js";
import { labelEntry } from "../actions/label.js";
import { resumeAtEntry } from "../actions/navigate.js";
import {
  deletePermanently,
  insideFolder,
  restoreFile,
  trashedFromStore,
  trashSessions,
  type DeleteTarget,
  type TrashRecord,
} from "../actions/trash/index.js";
import { CliError } from "../cli/common/errors.js";
import type { CliIO } from "../cli/common/io.js";
import { runCaptured, type CommandName, type Ran } from "./commands.js";
import { scanColumns } from "../cli/common/scan-columns.js";
import { storeFromArgs } from "../cli/common/store-arg.js";
import { identityProblem, type FileIdentity } from "../store/file-identity.js";
import { fsPath } from "../store/fs-path.js";
import { readRange } from "../store/read-range.js";
import { isDiagnostic, probeSessionFile, scanSessionFile } from "../store/scan-file.js";
import { summaryToJson } from "../model/summary-json.js";
import { sanitizeLine } from "../text/sanitize.js";
import { trace } from "../launcher/trace.js";
import {
  encodeLine,
  LineSplitter,
  LineTooLong,
  MAX_REQUEST_LINE,
  OPS,
  parseRequest,
  PROTOCOL,
  READ_CHUNK,
  type Hello,
  type Op,
} from "./protocol.js";

/*
 * `pi-sessions serve --stdio`: the remote side. Every request is carried out here, on this
 * machine's store, by the code the command line runs (list, search, stats, show, export,
 * rename, label, delete, restore run as those very commands, with their checks), or by the
 * browser's own writes (label, resume-at-entry, fork, trash) with the identity checks they make
 * locally: a write names the file as it was read (inode, size, mtime) and is refused if it is
 * another. A path a request names must be a session file inside this machine's store.
 */

type Params = Record<string, unknown>;

export interface ServeOptions {
  input: Readable;
  output: Writable;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** --session-dir given to serve: the store every request works on (else the one found as the CLI finds it). */
  sessionDir?: string;
  version: string;
}

/** A request the server refuses: its message goes back as the answer's error. */
class Refused extends Error {
  constructor(
    message: string,
    readonly exit = 1,
  ) {
    super(message);
  }
}

const str = (v: unknown, name: string): string => {
  if (typeof v !== "string") throw new Refused(`${name} must be a string`, 2);
  return v;
};
const optStr = (v: unknown, name: string): string | undefined => (v === undefined ? undefined : str(v, name));
const optNum = (v: unknown, name: string): number | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) throw new Refused(`${name} must be a number`, 2);
  return v;
};
const identity = (v: unknown): FileIdentity | undefined => {
  if (v === undefined) return undefined;
  const o = v as Record<string, unknown>;
  if (!o || typeof o.ino !== "number" || typeof o.bytes !== "number" || typeof o.mtimeMs !== "number")
    throw new Refused("expect must be { ino, bytes, mtimeMs }", 2);
  return { ino: o.ino, bytes: o.bytes, mtimeMs: o.mtimeMs };
};

/** One of the command line's own commands, run in-process on a captured io (src/remote/commands.ts). */
function runCommand(
  name: CommandName,
  argv: string[],
  opts: ServeOptions,
  shape: { columns?: number; tty?: boolean } = {},
): Promise<Ran> {
  const args = opts.sessionDir !== undefined ? [`--session-dir=${opts.sessionDir}`, ...argv] : argv;
  return runCaptured(name, args, { cwd: opts.cwd, env: opts.env, isTTY: !!shape.tty, columns: shape.columns });
}

/** A command's answer: what it printed; an exit status other than 0 (or those in `fine`) is the request's error. */
function answered(r: Ran, json = false, fine: readonly number[] = [0]): Record<string, unknown> {
  if (!fine.includes(r.exit)) throw new Refused(lastLine(r.err) || `failed (exit ${r.exit})`, r.exit);
  const notes = r.err;
  if (json) return { exit: r.exit, json: r.out.length ? (JSON.parse(r.out.toString("utf8")) as unknown) : null, notes };
  return { exit: r.exit, text: r.out.toString("utf8"), notes };
}

/** The error line of a command's stderr, without its "pi-sessions: " (the client says whose it is). */
function lastLine(err: string): string {
  const lines = err.trimEnd().split("\n");
  return (lines.at(-1) ?? "").replace(/^pi-sessions: /, "");
}

/** --all, or --cwd=DIR (a value that may start with "-" is written with "="), or this folder. */
function scopeArgs(p: Params): string[] {
  const cwd = optStr(p.cwd, "cwd");
  return p.all === true ? ["--all"] : cwd !== undefined ? [`--cwd=${cwd}`] : [];
}

/** An io that prints nothing, for the command line's helpers run here. */
const quietIO = (opts: ServeOptions): CliIO => ({
  stdout: () => {},
  stderr: () => {},
  cwd: opts.cwd,
  env: opts.env,
  isTTY: false,
});

/** The store this server answers for, and whether a path lies in it. */
function storeOf(opts: ServeOptions): string {
  try {
    return storeFromArgs(opts.sessionDir, quietIO(opts)).dir;
  } catch (e) {
    throw new Refused(e instanceof Error ? e.message : String(e));
  }
}

/** A path named by a request: a .jsonl file inside the store, or refused. */
function sessionPath(opts: ServeOptions, v: unknown): string {
  const path = str(v, "path");
  if (!path.startsWith("/") || !path.endsWith(".jsonl") || !insideFolder(storeOf(opts), path))
    throw new Refused(`not a session of this store: ${path}`);
  return path;
}

const stamp = (path: string) => {
  const st = statSync(fsPath(path));
  return { ino: st.ino, bytes: st.size, mtimeMs: st.mtimeMs };
};

/** A trash record as the client may hold it (its own paths are this machine's). */
const recordJson = (r: TrashRecord) => r as unknown as Record<string, unknown>;

/** The record of this machine's trash log that `v` names (by its original path and trashed file): never the client's paths. */
function loggedRecord(opts: ServeOptions, v: unknown): TrashRecord {
  const o = (v ?? {}) as Record<string, unknown>;
  const original = str(o.original, "record.original");
  const trashed = str(o.trashedFile, "record.trashedFile");
  const r = trashedFromStore(storeOf(opts), opts.env).find((x) => x.original === original && x.trashedFile === trashed);
  if (!r) throw new Refused(`${original} is not in this machine's trash (restored or emptied since?)`);
  return r;
}

/** The delete targets a request names: sessions of this store, each with the size and mtime the user confirmed. */
async function targetsOf(opts: ServeOptions, v: unknown): Promise<DeleteTarget[]> {
  if (!Array.isArray(v) || v.length === 0) throw new Refused("targets must be a list of sessions", 2);
  const out: DeleteTarget[] = [];
  for (const t of v as Record<string, unknown>[]) {
    const path = sessionPath(opts, t?.path);
    const st = statSync(fsPath(path));
    const probe = await probeSessionFile({ path, bytes: st.size, mtimeMs: st.mtimeMs }, 64 * 1024);
    if (!probe || isDiagnostic(probe)) throw new Refused(`${path} is not a pi session; nothing deleted`);
    out.push({
      path,
      sessionId: probe.id,
      cwd: probe.cwd,
      ...(typeof t.title === "string" ? { title: t.title } : {}),
      ...(typeof t.bytes === "number" ? { bytes: t.bytes } : {}),
      ...(typeof t.mtimeMs === "number" ? { mtimeMs: t.mtimeMs } : {}),
    });
  }
  return out;
}

/** The same write refusal as a screen gives locally: the file is not the one read. */
function checkRead(path: string, expect: FileIdentity | undefined): void {
  const problem = identityProblem(path, expect);
  if (problem) throw new Refused(problem);
}

/**
 * JSON text already made (list --json's, safeJson: C1 controls escaped), put into an answer
 * as it is, its line breaks and the indentation after each (whitespace between its tokens:
 * strings escape theirs) left out: a fifth of a list's bytes, sent and parsed for nothing.
 */
class RawJson {
  constructor(readonly text: string) {}
}

/** The sessions' paths in list --json's text, in order: each element's "path" key line (its own line, four spaces in). */
function listPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^ {4}"path": ("(?:[^"\\\n]|\\.)*"),$/gm)) out.push(JSON.parse(m[1]) as string);
  return out;
}

/** JSON text without its line breaks and the indentation after each (whitespace between tokens: strings escape theirs). */
const compactJson = (text: string) => text.replace(/\r?\n */g, "");

/** One answer as one line, with the RawJson values of its result written as they are. */
function answerLine(id: number, result: Record<string, unknown>): string {
  const raw = Object.entries(result).filter((e): e is [string, RawJson] => e[1] instanceof RawJson);
  if (!raw.length) return encodeLine({ id, ok: true, result });
  const rest = Object.fromEntries(Object.entries(result).filter(([, v]) => !(v instanceof RawJson)));
  const head = encodeLine({ id, ok: true, result: rest }).slice(0, -3); // without "}}\n"
  const parts = raw.map(([k, v]) => `${JSON.stringify(k)}:${compactJson(v.text)}`);
  return `${head}${Object.keys(rest).length ? "," : ""}${parts.join(",")}}}\n`;
}

const HANDLERS: Record<Op, (p: Params, opts: ServeOptions) => Promise<Record<string, unknown>>> = {
  async list(p, opts) {
    const sort = optStr(p.sort, "sort");
    const r = await runCommand("list", ["--json", ...scopeArgs(p), ...(sort ? [`--sort=${sort}`] : [])], opts);
    if (r.exit !== 0) throw new Refused(lastLine(r.err) || `list failed (exit ${r.exit})`, r.exit);
    const text = r.out.toString("utf8");
    // Each file's inode and mtime beside its summary, in the same order: what a write from the
    // other machine names as the file it read (the same identity checks as here).
    const ids: ([number, number] | null)[] = [];
    for (const path of listPaths(text)) {
      try {
        const st = statSync(fsPath(path));
        ids.push([st.ino, st.mtimeMs]);
      } catch {
        ids.push(null);
      }
    }
    // The same answer as the client kept: said in a few bytes, not sent again.
    const h = createHash("sha256").update(r.out).update(JSON.stringify(ids)).digest("hex").slice(0, 32);
    if (p.since === h) return { hash: h, unchanged: true };
    // Asked deflated (a client that reads it): list --json's text, compact, deflated (level 1:
    // ~20 ms here for 2,000 sessions), in base64: a quarter of the bytes, through ssh at both
    // ends and the network between, for ~15 ms there to inflate it.
    if (p.deflate === true) {
      const packed = deflateRawSync(compactJson(text), { level: 1 }).toString("base64");
      return { hash: h, ids, notes: r.err, sessionsDeflated: packed };
    }
    // list --json's own text, as it printed it (never parsed and written again here).
    return { hash: h, ids, notes: r.err, sessions: new RawJson(text) };
  },

  async search(p, opts) {
    const query = str(p.query, "query");
    const limit = optNum(p.limit, "limit");
    // As JSON, or as the text the command prints (for a terminal of `columns`, hits marked as on one: `tty`).
    const json = p.text !== true;
    const argv = [
      ...(json ? ["--json"] : []),
      ...scopeArgs(p),
      ...(limit ? [`--limit=${limit}`] : []),
      ...(p.tools ? ["--tools"] : []),
    ];
    const shape = { columns: optNum(p.columns, "columns"), tty: p.tty === true };
    // Exit 1 is "no match", as grep's: an answer, not a failure.
    return answered(await runCommand("search", [...argv, "--", query], opts, shape), json, [0, 1]);
  },
  async stats(p, opts) {
    const by = optStr(p.by, "by");
    const since = optStr(p.since, "since");
    const json = p.json !== false;
    const argv = [...(json ? ["--json"] : []), ...scopeArgs(p)];
    if (by) argv.push(`--by=${by}`);
    if (since) argv.push(`--since=${since}`);
    return answered(await runCommand("stats", argv, opts, { columns: optNum(p.columns, "columns") }), json);
  },
  async show(p, opts) {
    const json = p.json === true;
    const r = await runCommand("show", [...(json ? ["--json"] : []), "--", str(p.session, "session")], opts, {
      columns: optNum(p.columns, "columns"),
    });
    return answered(r, json);
  },
  async export(p, opts) {
    const format = optStr(p.format, "format");
    const branch = optStr(p.branch, "branch");
    const argv = [...(format ? [`--format=${format}`] : []), ...(branch !== undefined ? [`--branch=${branch}`] : [])];
    if (p.allBranches === true) argv.push("--all-branches");
    return answered(await runCommand("export", [...argv, "--", str(p.session, "session")], opts));
  },
  async read(p, opts) {
    const path = sessionPath(opts, p.path);
    const from = optNum(p.offset, "offset") ?? 0;
    const want = Math.min(optNum(p.length, "length") ?? READ_CHUNK, READ_CHUNK);
    const fd = openSync(fsPath(path), "r");
    try {
      const st = fstatSync(fd);
      // The copy the client holds is of another file (replaced, or rewritten shorter): from the start.
      const was = p.ino === undefined ? undefined : optNum(p.ino, "ino");
      const start = (was !== undefined && was !== st.ino) || from > st.size ? 0 : from;
      const data = readRange(fd, start, Math.max(0, Math.min(want, st.size - start)));
      return {
        path,
        offset: start,
        ino: st.ino,
        bytes: st.size,
        mtimeMs: st.mtimeMs,
        data: data.toString("base64"),
      };
    } finally {
      closeSync(fd);
    }
  },
  async rename(p, opts) {
    if (p.path !== undefined) {
      // The browser's rename: the file it shows, by path.
      const path = sessionPath(opts, p.path);
      const { renameSession } = await import("../actions/rename.js");
      const entry = await renameSession(path, str(p.name, "name"));
      return { name: entry.name, stamp: stamp(path) };
    }
    return answered(await runCommand("rename", ["--", str(p.session, "session"), str(p.name, "name")], opts));
  },
  async label(p, opts) {
    const label = optStr(p.label, "label");
    if (p.path !== undefined) {
      const path = sessionPath(opts, p.path);
      checkRead(path, identity(p.expect));
      const entry = await labelEntry(path, str(p.entryId, "entryId"), label);
      return { label: (entry.label as string | undefined) ?? null, stamp: stamp(path) };
    }
    const argv = ["--", str(p.session, "session"), str(p.entryId, "entryId"), ...(label !== undefined ? [label] : [])];
    return answered(await runCommand("label", argv, opts));
  },
  async navigate(p, opts) {
    const path = sessionPath(opts, p.path);
    checkRead(path, identity(p.expect));
    const target = p.entryId === null ? null : str(p.entryId, "entryId");
    const written = await resumeAtEntry(path, target);
    return { wrote: written !== null, stamp: stamp(path) };
  },
  async fork(p, opts) {
    const path = sessionPath(opts, p.path);
    checkRead(path, identity(p.expect));
    const res = await forkAtEntry(path, str(p.entryId, "entryId"));
    const scan = await scanSessionFile(res.path);
    return { path: res.path, summary: scan.kind === "session" ? summaryToJson(scan.summary) : null };
  },
  async delete(p, opts) {
    if (p.targets !== undefined) {
      // The browser's delete: the files it shows, as they were when the user confirmed.
      const targets = await targetsOf(opts, p.targets);
      if (p.permanent === true) return { deleted: deletePermanently(targets) };
      const { records, failed } = trashSessions(targets, opts.env);
      return {
        records: records.map(recordJson),
        ...(failed ? { failed: { path: failed.path, message: failed.error.message, name: failed.error.name } } : {}),
      };
    }
    if (!Array.isArray(p.sessions) || !p.sessions.length) throw new Refused("sessions must be a list", 2);
    const sessions = p.sessions.map((s) => str(s, "session"));
    const argv = ["--yes", ...(p.permanent === true ? ["--permanent"] : []), "--", ...sessions];
    return answered(await runCommand("delete", argv, opts));
  },
  async restore(p, opts) {
    if (p.record !== undefined) {
      const r = loggedRecord(opts, p.record);
      restoreFile(r);
      return { restored: r.original };
    }
    const argv = p.last === true ? ["--last"] : ["--", str(p.session, "session")];
    return answered(await runCommand("restore", argv, opts));
  },
  async usage(_p, opts) {
    // Every session's usage by day and model, from the index's columns (as `stats` reads it):
    // [path, [[day, model, input, output, cacheRead, cacheWrite, cost], …]], compact on the wire.
    const { sessions } = await scanColumns(storeOf(opts), quietIO(opts), ["path", "usage"], undefined, true);
    const usage: unknown[] = [];
    for (const s of sessions)
      if (s.usage)
        usage.push([
          s.path,
          s.usage.map((u) => [u.day, u.model, u.input, u.output, u.cacheRead, u.cacheWrite, u.cost]),
        ]);
    return { usage };
  },
  async trash(p, opts) {
    const store = storeOf(opts);
    if (p.purge !== undefined) {
      const { purgeFile } = await import("../actions/trash/index.js");
      purgeFile(loggedRecord(opts, p.purge));
      return { purged: true };
    }
    return { store, records: trashedFromStore(store, opts.env).map(recordJson) };
  },
};

/** Serves requests on `input` until it ends; each answer one line on `output`. Resolves when the input is done and every answer written. */
export function serve(opts: ServeOptions): Promise<void> {
  const { input, output } = opts;
  const hello: Hello = { "pi-sessions": "serve", protocol: PROTOCOL, version: opts.version, capabilities: [...OPS] };
  const write = (v: unknown) => {
    output.write(encodeLine(v));
  };
  write(hello);
  trace("serve: hello");
  const splitter = new LineSplitter(MAX_REQUEST_LINE);
  const pending = new Set<Promise<void>>();
  return new Promise((resolve) => {
    let ended = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      Promise.allSettled([...pending]).then(() => resolve());
    };
    const handle = (line: string) => {
      if (!line.trim()) return;
      const req = parseRequest(line);
      if ("problem" in req) {
        write({ id: req.id ?? null, ok: false, error: { message: req.problem, exit: 2 } });
        return;
      }
      const job = HANDLERS[req.op](req.params ?? {}, opts).then(
        (result) => {
          output.write(answerLine(req.id, result), () => trace(`serve: answer to ${req.op} written`));
        },
        (e: unknown) => {
          const exit = e instanceof Refused ? e.exit : e instanceof CliError ? e.exitCode : 1;
          const message = e instanceof Error ? e.message : String(e);
          write({ id: req.id, ok: false, error: { message: sanitizeLine(message), exit } });
        },
      );
      pending.add(job);
      void job.finally(() => pending.delete(job));
    };
    input.on("data", (chunk: Buffer) => {
      if (ended) return;
      let lines: string[];
      try {
        lines = splitter.push(chunk);
      } catch (e) {
        if (!(e instanceof LineTooLong)) throw e;
        write({ id: null, ok: false, error: { message: `a request line over ${MAX_REQUEST_LINE} bytes`, exit: 2 } });
        input.destroy();
        finish();
        return;
      }
      for (const l of lines) handle(l);
    });
    input.on("end", finish);
    input.on("close", finish);
    input.on("error", finish);
  });
}
