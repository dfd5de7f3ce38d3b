import { DELETE_OPTIONS } from "../cli/commands/delete.js";
import { EXPORT_OPTIONS } from "../cli/commands/export.js";
import { LIST_OPTIONS } from "../cli/commands/list.js";
import { SEARCH_OPTIONS } from "../cli/commands/search.js";
import { STATS_OPTIONS } from "../cli/commands/stats.js";
import { output } from "../cli/common/output.js";
import { existsSync, statSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import { dirname, resolve } from "node:path";
import stripAnsi from "strip-ansi";
import { writeNew } from "../actions/fork.js";
import { formatOf, isSessionFile, replaceFile } from "../cli/commands/export.js";
import { COMMAND_TABLE } from "../cli/commands/table.js";
import { configPath, loadConfig } from "../config/config.js";
import { CliError, usageError } from "../cli/common/errors.js";
import { quietIO, type CliIO } from "../cli/common/io.js";
import { parse, QUIET_OPTION, STORE_OPTION } from "../cli/common/parse.js";
import type { SessionSummary } from "../model/types.js";
import { clipboardText, sanitizeLine } from "../text/sanitize.js";
import { RemoteError, type RemoteClient } from "./client.js";
import { runCaptured, type CommandName } from "./commands.js";
import { remoteSessionName } from "./route.js";
import {
  checkedHosts,
  LIST_PACKED,
  listRows,
  openHosts,
  readKeptList,
  remoteSettings,
  touchKeptList,
  writeKeptList,
  type HostAnswer,
} from "./hosts.js";

/*
 * The command line with --host, or a session named HOST:PATH: this machine's rows first,
 * then each host's, labelled; a session on a host read or changed there, by the host's own
 * pi-sessions. What a host says is text from another machine: printed only sanitized.
 */

const HOST_OPTION = { host: { type: "string", multiple: true } } as const;

/** Each command's own options (their tables, not copies of them), and --host. */
const OPTIONS = {
  list: { ...LIST_OPTIONS, ...HOST_OPTION },
  search: { ...SEARCH_OPTIONS, ...HOST_OPTION },
  stats: { ...STATS_OPTIONS, ...HOST_OPTION },
  show: { ...STORE_OPTION, ...QUIET_OPTION, ...HOST_OPTION, json: { type: "boolean" } },
  export: { ...EXPORT_OPTIONS, ...HOST_OPTION },
  rename: { ...STORE_OPTION, ...QUIET_OPTION, ...HOST_OPTION },
  label: { ...STORE_OPTION, ...QUIET_OPTION, ...HOST_OPTION },
  delete: { ...DELETE_OPTIONS, ...HOST_OPTION },
  restore: { ...STORE_OPTION, ...QUIET_OPTION, ...HOST_OPTION, last: { type: "boolean" } },
} as const;

/** The command line without its --host options: what this machine's own command is given. */
function withoutHosts(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return [...out, ...args.slice(i)];
    if (a === "--host") i++;
    else if (!a.startsWith("--host=")) out.push(a);
  }
  return out;
}

/**
 * Text a host printed, as it may reach a terminal or a file: escape sequences and control
 * characters other than tab and newline removed. `marks` keeps the one sequence pair a
 * search prints on a terminal around a hit (reverse video on and off), and nothing else.
 */
export function remoteText(text: string, marks = false): string {
  const clean = (t: string) => clipboardText(stripAnsi(t));
  if (!marks) return clean(text);
  return text
    .split("\x1b[7m")
    .map((on) => on.split("\x1b[27m").map(clean).join("\x1b[27m"))
    .join("\x1b[7m");
}

/** Notes a host wrote on its stderr: each line sanitized, said as the host's. */
function sayNotes(io: CliIO, host: string, notes: unknown): void {
  if (typeof notes !== "string" || !notes) return;
  for (const line of notes.split("\n")) {
    const l = sanitizeLine(line).replace(/^pi-sessions: /, "");
    if (l.trim()) output(io).note(`pi-sessions: ${host}: ${l}\n`);
  }
}

const asCliError = (e: unknown) =>
  e instanceof RemoteError ? new CliError(e.message, e.exit === 2 ? 2 : 1) : (e as Error);

/** Runs a remote-aware command (main.ts routes here when wantsHost); without a host after all, the local command. */
export async function remoteCommand(command: string, args: string[], given: CliIO): Promise<number> {
  const name = command as keyof typeof OPTIONS;
  const { values, positionals } = parse(args, OPTIONS[name], command);
  const io = quietIO(given, values.quiet);
  let hosts: string[];
  try {
    hosts = checkedHosts(values.host ?? []);
  } catch (e) {
    throw asCliError(e);
  }
  if (name === "list" || name === "search" || name === "stats") {
    if (!hosts.length) return (await runLocal(name, args, io, given)).exit;
    // The files this machine's list leaves out are its own: no host is asked.
    if (name === "list" && (values as Record<string, unknown>).skipped === true)
      throw usageError("list --skipped is this machine's skipped files: it takes no --host");
    return await severalMachines(name, args, values as Record<string, unknown>, positionals, hosts, io, given);
  }
  return await oneHost(name, args, values as Record<string, unknown>, positionals, hosts, io, given);
}

/** This machine's command, on the command line without --host; stdout captured when `capture`. */
async function runLocal(name: CommandName, args: string[], io: CliIO, given: CliIO, capture = false) {
  if (!capture) {
    return { exit: await (await COMMAND_TABLE[name]())(withoutHosts(args), given), out: Buffer.alloc(0) };
  }
  return runCaptured(name, withoutHosts(args), {
    cwd: io.cwd,
    env: io.env,
    isTTY: io.isTTY,
    columns: io.columns,
    stderr: io.stderr,
  });
}

/** How to reach hosts: $PI_SESSIONS_SSH, else the config's "ssh" setting (the default config file: the command line has no --config). */
function settingsFor(io: CliIO) {
  const { config } = loadConfig(configPath(undefined, io.env, io.cwd));
  return remoteSettings(io.env, config.ssh);
}

/** A list answer's rows as summaries (dates as Dates), for the table. */
function summaryOf(row: Record<string, unknown>): SessionSummary {
  return {
    ...(row as unknown as SessionSummary),
    name: (row.name as string | null) ?? undefined,
    created: new Date(String(row.created)),
    modified: new Date(String(row.modified)),
  };
}

const isRows = (v: unknown): v is Record<string, unknown>[] =>
  Array.isArray(v) && v.every((r) => !!r && typeof r === "object" && !Array.isArray(r));

/** A host's list: asked with the hash of the rows kept of it, so an unchanged host sends a few bytes. */
export async function hostList(
  client: RemoteClient,
  env: NodeJS.ProcessEnv,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const scopeAll = params.cwd === undefined;
  const kept = scopeAll && !params.sort ? readKeptList(env, client.host) : undefined;
  const r = await client.request("list", { ...params, ...LIST_PACKED, ...(kept ? { since: kept.hash } : {}) });
  if (r.unchanged === true && kept && r.hash === kept.hash) {
    touchKeptList(env, client.host);
    return kept.sessions;
  }
  const rows = listRows(r);
  if (!rows) throw new RemoteError(client.host, "garbage", `${client.host}: sent a list that is none`);
  if (scopeAll && !params.sort)
    writeKeptList(env, { host: client.host, at: Date.now(), hash: String(r.hash), sessions: rows });
  return rows;
}

/** list, search and stats: this machine's answer, then each host's (asked at once, said in order). */
async function severalMachines(
  name: "list" | "search" | "stats",
  args: string[],
  values: Record<string, unknown>,
  positionals: string[],
  hosts: string[],
  io: CliIO,
  given: CliIO,
): Promise<number> {
  // Hosts are asked while this machine answers.
  const opening = openHosts(hosts, settingsFor(io), io.env);
  const json = values.json === true;
  // A host's folders are not this machine's: its sessions of every folder, or of --cwd there.
  const scope = values.cwd !== undefined ? { cwd: values.cwd } : { all: true };
  const failed: string[] = [];
  const fail = (e: unknown, host: string) => {
    const msg = e instanceof Error ? e.message : String(e);
    failed.push(host);
    // A host that cannot answer is said whatever -q says: its rows are missing.
    given.stderr(`pi-sessions: ${sanitizeLine(msg)}\n`);
  };
  const each = async <T>(ask: (a: HostAnswer & { client: RemoteClient }) => Promise<T>) => {
    const answers = await opening;
    try {
      return await Promise.all(
        answers.map(async (a) => {
          if (!a.client) {
            fail(a.error, a.host);
            return undefined;
          }
          try {
            return { host: a.host, value: await ask(a as HostAnswer & { client: RemoteClient }) };
          } catch (e) {
            fail(e, a.host);
            return undefined;
          }
        }),
      );
    } finally {
      for (const a of answers) a.client?.close();
    }
  };
  const status = (local: number) => (failed.length ? 1 : local);

  if (name === "list") {
    const local = await runLocal("list", [...args, "--json"], io, given, true);
    if (local.exit !== 0) return local.exit;
    const localRows = JSON.parse(local.out.toString("utf8")) as Record<string, unknown>[];
    const sort = values.sort as string | undefined;
    const remote = (await each((a) => hostList(a.client, io.env, { ...scope, ...(sort ? { sort } : {}) }))).filter(
      (x) => x !== undefined,
    );
    const rows = [...localRows, ...remote.flatMap((r) => r.value.map((s) => ({ ...s, host: r.host })))];
    if (json) {
      output(io).json(rows);
      return status(0);
    }
    if (!rows.length) {
      output(io).note("no sessions here or on the hosts\n");
      return status(0);
    }
    const { formatTable } = await import("../cli/commands/list.js");
    const sums = rows.map(summaryOf);
    const hostOf = new Map<unknown, string>(sums.map((s, i) => [s, (rows[i].host as string | undefined) ?? "local"]));
    output(io).text(formatTable(sums, true, Date.now(), io.columns, undefined, (s) => hostOf.get(s) ?? ""));
    return status(0);
  }

  if (name === "search") {
    const query = positionals.join(" ").trim();
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    const params = {
      ...scope,
      query,
      ...(limit !== undefined ? { limit } : {}),
      ...(values.tools ? { tools: true } : {}),
    };
    if (json) {
      const local = await runLocal("search", args, io, given, true);
      if (local.exit !== 0 && local.exit !== 1) return local.exit;
      const localRows = local.out.length ? (JSON.parse(local.out.toString("utf8")) as unknown[]) : [];
      const remote = await each((a) => a.client.request("search", params));
      const rows = [...localRows];
      for (const r of remote) {
        if (!r) continue;
        sayNotes(io, r.host, r.value.notes);
        if (isRows(r.value.json)) rows.push(...r.value.json.map((x) => ({ ...x, host: r.host })));
      }
      output(io).json(rows);
      return status(rows.length ? 0 : 1);
    }
    const local = await runLocal("search", args, io, given);
    if (local.exit !== 0 && local.exit !== 1) return local.exit;
    let found = local.exit === 0;
    const remote = await each((a) =>
      a.client.request("search", {
        ...params,
        text: true,
        tty: io.isTTY,
        ...(io.columns ? { columns: io.columns } : {}),
      }),
    );
    for (const r of remote) {
      if (!r) continue;
      const text = typeof r.value.text === "string" ? r.value.text : "";
      if (r.value.exit === 0 && text) {
        found = true;
        io.stdout(`── ${r.host} ──\n${remoteText(text, io.isTTY)}`);
      }
      sayNotes(io, r.host, r.value.notes);
    }
    return status(found ? 0 : 1);
  }

  // stats
  const params = {
    ...scope,
    ...(values.by ? { by: values.by } : {}),
    ...(values.since ? { since: values.since } : {}),
  };
  if (json) {
    const local = await runLocal("stats", args, io, given, true);
    if (local.exit !== 0) return local.exit;
    const reports: Record<string, unknown>[] = [
      { host: null, ...(JSON.parse(local.out.toString("utf8")) as Record<string, unknown>) },
    ];
    for (const r of await each((a) => a.client.request("stats", { ...params, json: true })))
      if (r && r.value.json && typeof r.value.json === "object") reports.push({ host: r.host, ...r.value.json });
    output(io).json(reports);
    return status(0);
  }
  const local = await runLocal("stats", args, io, given);
  if (local.exit !== 0) return local.exit;
  const columns = io.columns ?? (Number(io.env.COLUMNS) > 0 ? Number(io.env.COLUMNS) : undefined);
  for (const r of await each((a) =>
    a.client.request("stats", { ...params, json: false, ...(columns ? { columns } : {}) }),
  )) {
    if (!r) continue;
    io.stdout(`── ${r.host} ──\n${remoteText(String(r.value.text ?? ""))}`);
  }
  return status(0);
}

/** show, export and the writes: on one host, the session named HOST:PATH or by id (prefix) with --host. */
async function oneHost(
  name: "show" | "export" | "rename" | "label" | "delete" | "restore",
  args: string[],
  values: Record<string, unknown>,
  positionals: string[],
  hosts: string[],
  io: CliIO,
  given: CliIO,
): Promise<number> {
  // The sessions the command names (for label and rename, the first word only; the rest are its text).
  const sessionWords = name === "delete" ? positionals : positionals.slice(0, 1);
  const named = sessionWords.map((w) => remoteSessionName(w));
  const namedHosts = new Set(named.filter((n) => n !== undefined).map((n) => n.host));
  if (named.some((n) => n === undefined) && namedHosts.size > 0 && hosts.length === 0)
    throw usageError(`${name} works on one machine at a time: name every session HOST:PATH on the same host`);
  const all = new Set([...hosts, ...namedHosts]);
  if (all.size === 0) return (await runLocal(name, args, io, given)).exit;
  if (all.size > 1) throw usageError(`${name} works on one host at a time (got ${[...all].join(", ")})`);
  const host = [...all][0];
  try {
    checkedHosts([host]);
  } catch (e) {
    throw asCliError(e);
  }
  if (values["session-dir"] !== undefined)
    throw usageError("--session-dir names this machine's store; a host's store is the one pi-sessions finds there");
  const sessions = sessionWords.map((w, i) => named[i]?.path ?? w);
  if (name !== "restore" && sessions.some((s) => !s.trim()))
    throw usageError("the session must not be empty (give a path, an id or an id prefix)");
  const rest = positionals.slice(sessionWords.length);

  // Usage mistakes are said before connecting, as the command would say them.
  let request: { op: "show" | "export" | "rename" | "label" | "delete" | "restore"; params: Record<string, unknown> };
  let out: string | undefined;
  switch (name) {
    case "show":
      if (positionals.length !== 1) throw usageError("show takes one <session> (path, id or unique id prefix)");
      request = {
        op: "show",
        params: { session: sessions[0], json: values.json === true, ...(io.columns ? { columns: io.columns } : {}) },
      };
      break;
    case "export": {
      if (positionals.length !== 1) throw usageError("export takes one <session> (path, id or unique id prefix)");
      const format = formatOf(values.format as string | undefined, values.output as string | undefined);
      const allBranches = values["all-branches"] === true;
      if (allBranches && values.branch !== undefined)
        throw usageError("--branch and --all-branches do not go together");
      if (allBranches && format === "jsonl")
        throw usageError("a JSONL export is one branch (a session pi opens); --all-branches is for md and html");
      const o = values.output as string | undefined;
      out = o === undefined || o === "-" ? undefined : resolve(io.cwd, o);
      if (out !== undefined && existsSync(out) && !values.force)
        throw new CliError(`${out} already exists; not overwriting it (--force replaces it)`);
      if (out !== undefined && values.force && isSessionFile(out))
        throw new CliError(`${out} is a pi session; export never writes over one, --force or not`);
      if (out !== undefined && !statSync(dirname(out), { throwIfNoEntry: false })?.isDirectory())
        throw new CliError(`no folder ${dirname(out)} to write ${out} into`);
      request = {
        op: "export",
        params: {
          session: sessions[0],
          format,
          ...(values.branch !== undefined ? { branch: values.branch } : {}),
          ...(allBranches ? { allBranches: true } : {}),
        },
      };
      break;
    }
    case "rename":
      if (positionals.length !== 2) throw usageError('rename takes <session> <name> (use "" to clear the name)');
      request = { op: "rename", params: { session: sessions[0], name: rest[0] } };
      break;
    case "label":
      if (positionals.length < 2 || positionals.length > 3) throw usageError("label takes <session> <entryId> [label]");
      request = {
        op: "label",
        params: { session: sessions[0], entryId: rest[0], ...(rest.length > 1 ? { label: rest[1] } : {}) },
      };
      break;
    case "delete": {
      if (!positionals.length) throw usageError("delete takes one or more <session> (path, id or unique id prefix)");
      if (!values.yes && !io.isTTY)
        throw new CliError("refusing to delete without a terminal to confirm on; pass --yes to confirm");
      request = { op: "delete", params: { sessions, ...(values.permanent ? { permanent: true } : {}) } };
      break;
    }
    case "restore":
      if (!values.last && positionals.length === 0)
        throw usageError(
          "restore needs a <session> (id, path or file name) or --last (see pi-sessions restore --help)",
        );
      if (values.last ? positionals.length > 0 : positionals.length > 1)
        throw usageError("restore takes one <session> or --last");
      request = { op: "restore", params: values.last ? { last: true } : { session: sessions[0] } };
      break;
  }
  if (name === "delete" && !values.yes) {
    const what = `${sessions.length === 1 ? "1 session" : `${sessions.length} sessions`} on ${host}`;
    const ok = values.permanent
      ? /^delete$/.test(
          await confirmText(`Delete ${what} PERMANENTLY? This cannot be undone. Type "delete" to confirm: `),
        )
      : /^y(es)?$/i.test(await confirmText(`Move ${what} to the trash? [y/N] `));
    if (!ok) {
      output(io).note("cancelled; nothing deleted\n");
      return 1;
    }
  }

  const [answer] = await openHosts([host], settingsFor(io), io.env);
  if (!answer.client) throw asCliError(answer.error);
  const client = answer.client;
  try {
    const r = await client.request(request.op, request.params);
    sayNotes(io, host, name === "delete" ? withoutUndoHint(r.notes) : r.notes);
    if (name === "show" && values.json) {
      output(io).json({ host, ...(r.json as Record<string, unknown>) });
      return 0;
    }
    const text = remoteText(String(r.text ?? ""));
    if (name === "export" && out !== undefined) {
      writeExport(out, text, values.force === true);
      output(io).note(`exported ${host}'s session to ${out}\n`);
      return 0;
    }
    io.stdout(text);
    if (name === "delete" && !values.permanent && /^trashed /m.test(text))
      output(io).note(`undo with: pi-sessions restore --last --host ${host}\n`);
    return 0;
  } catch (e) {
    throw asCliError(e);
  } finally {
    client.close();
  }
}

/** Asks before a delete on a host, as `delete` asks here: the answer typed. */
async function confirmText(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/** The host's own undo hint names no host: ours replaces it. */
function withoutUndoHint(notes: unknown): string {
  return typeof notes === "string" ? notes.replace(/^undo with: .*\n?/gm, "") : "";
}

/** An export to a file here, with export's own rules (never over a file unless --force, never over a session). */
function writeExport(out: string, text: string, force: boolean): void {
  try {
    if (force) replaceFile(out, text);
    else writeNew(out, text);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST")
      throw new CliError(`${out} already exists; not overwriting it (--force replaces it)`);
    throw err;
  }
}
