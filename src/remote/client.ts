import type { ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { sanitizeLine } from "../text/sanitize.js";
import {
  encodeLine,
  LineSplitter,
  LineTooLong,
  MAX_ANSWER_LINE,
  parseAnswer,
  parseHello,
  PROTOCOL,
  type Hello,
  type Op,
} from "./protocol.js";
import { spawnServe, type SshOptions } from "./ssh.js";
import { trace } from "../launcher/trace.js";

/*
 * This side of the protocol: one conversation with one host's `pi-sessions serve --stdio`.
 * Nothing waits for ever: the hello and every answer have a deadline, and what the host
 * says is text from another machine (sanitized wherever it is shown, never a local path
 * to write to or a command to run).
 */

export type RemoteProblem =
  | "unreachable" // ssh could not connect or log in
  | "not-installed" // no pi-sessions on the host's PATH
  | "too-old" // a pi-sessions without serve, or an older protocol
  | "too-new" // a newer protocol than this build speaks
  | "garbage" // something else answered
  | "timeout" // no answer in time
  | "refused"; // the host carried out nothing: its own error

export class RemoteError extends Error {
  override name = "RemoteError";
  constructor(
    readonly host: string,
    readonly problem: RemoteProblem,
    message: string,
    /** The exit status the host's command gave (a refused request). */
    readonly exit = 1,
  ) {
    super(message);
  }
}

/** How to install pi-sessions where it is missing or too old: one line. */
export const INSTALL_HINT = "install it there with `npm install -g pi-sessions` (or `pi install npm:pi-sessions`)";

export interface Transport {
  stdin: Writable;
  stdout: Readable;
  stderr?: Readable;
  /** Ends the conversation (kills ssh). */
  close(): void;
  /** Resolves with the exit status when the other side is gone. */
  exited: Promise<number | null>;
}

export function childTransport(child: ChildProcess): Transport {
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.once("error", () => resolve(null));
  });
  // Writes after the far end is gone fail quietly: the exit says what happened.
  child.stdin!.on("error", () => {});
  return {
    stdin: child.stdin!,
    stdout: child.stdout!,
    stderr: child.stderr ?? undefined,
    close: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      // ssh's master connection (ControlPersist) lives on with ssh's pipes: not read any more,
      // they must not hold this program open.
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
    exited,
  };
}

/** Last lines of the far side's stderr (ssh's own messages, or the remote shell's), sanitized. */
function lastWords(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => sanitizeLine(l).trim())
    .filter(Boolean);
  const line = lines.at(-1) ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Why the conversation never started, from how ssh ended and what it said. */
export function startProblem(host: string, code: number | null, stderr: string): RemoteError {
  const said = lastWords(stderr);
  if (/unknown command 'serve'/.test(stderr))
    return new RemoteError(
      host,
      "too-old",
      `${host}: its pi-sessions is too old to serve (update it: ${INSTALL_HINT})`,
    );
  if (code === 127 || /command not found|not found|No such file or directory/i.test(stderr))
    return new RemoteError(host, "not-installed", `${host}: pi-sessions is not installed there (${INSTALL_HINT})`);
  if (/Permission denied|Host key verification failed|passphrase|password/i.test(stderr))
    return new RemoteError(
      host,
      "unreachable",
      `${host}: ssh could not log in without a prompt (${said}); connect once by hand: ssh ${host}`,
    );
  if (code === 255 || code === null)
    return new RemoteError(host, "unreachable", `${host}: unreachable${said ? ` (${said})` : ""}`);
  return new RemoteError(
    host,
    "garbage",
    `${host}: pi-sessions serve ended (exit ${code})${said ? `: ${said}` : ""}; is pi-sessions there up to date? (${INSTALL_HINT})`,
  );
}

/** Lines the far side may print before its hello (a login banner of the remote shell): tolerated, then it is no pi-sessions. */
const NOISE_LINES = 50;
/** What `stderr` keeps for messages. */
const STDERR_KEPT = 16 * 1024;

export interface ClientOptions {
  /** Milliseconds for the hello (connecting, logging in, starting pi-sessions there). */
  helloTimeoutMs: number;
  /** Milliseconds each answer may take. */
  requestTimeoutMs: number;
}

/** A request written with the connection's start, before the hello came: it saves a round trip. */
export interface EarlyRequest {
  op: Op;
  params: Record<string, unknown>;
}

type Waiting = {
  resolve: (r: Record<string, unknown>) => void;
  reject: (e: RemoteError) => void;
  timer: NodeJS.Timeout;
};

export class RemoteClient {
  private nextId = 1;
  /** The early requests' answers, by op, until taken. */
  private readonly early = new Map<Op, Promise<Record<string, unknown>>>();
  private readonly waiting = new Map<number, Waiting>();
  private failure?: RemoteError;
  /** Bytes received, for the figures (bench/): what a refresh costs the wire. */
  bytesIn = 0;
  bytesOut = 0;
  /** Called once when the conversation ends by itself (the host went away, garbage, a line too long). */
  onEnd?: (e: RemoteError) => void;

  private constructor(
    readonly host: string,
    readonly hello: Hello,
    private readonly t: Transport,
    private readonly opts: ClientOptions,
  ) {}

  /**
   * Starts ssh to `host` and waits for the hello. `early` requests are written at once, before
   * the hello (the server reads them after saying it): their answers are taken with takeEarly.
   * `signal` given up before the hello stops ssh at once (the program is ending).
   */
  static open(
    host: string,
    ssh: SshOptions,
    opts: ClientOptions,
    env?: NodeJS.ProcessEnv,
    early: readonly EarlyRequest[] = [],
    signal?: AbortSignal,
  ): Promise<RemoteClient> {
    let child: ChildProcess;
    try {
      child = spawnServe(host, ssh, env);
      trace(`${host}: ssh started`);
    } catch (e) {
      return Promise.reject(new RemoteError(host, "unreachable", `${host}: ${e instanceof Error ? e.message : e}`));
    }
    return RemoteClient.over(host, childTransport(child), opts, early, signal);
  }

  /** The conversation over a transport already started (tests use in-memory streams). */
  static over(
    host: string,
    t: Transport,
    opts: ClientOptions,
    early: readonly EarlyRequest[] = [],
    signal?: AbortSignal,
  ): Promise<RemoteClient> {
    // Ids 1… are the early requests', written now; the client asks with the next ones.
    const earlyLines = early.map((r, i) => encodeLine({ id: i + 1, op: r.op, params: r.params }));
    for (const line of earlyLines) t.stdin.write(line);
    return new Promise((resolve, reject) => {
      let stderr = "";
      t.stderr?.on("data", (b: Buffer) => {
        if (stderr.length < STDERR_KEPT) stderr += b.toString("utf8");
      });
      const splitter = new LineSplitter(MAX_ANSWER_LINE);
      let client: RemoteClient | undefined;
      let noise = 0;
      let settled = false;
      let firstNoise = "";
      const fail = (e: RemoteError) => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener("abort", abort);
          t.close();
          reject(e);
        } else client?.fail(e);
      };
      // Given up before the hello: ssh stopped now, not left to its timeout (it would hold the program open).
      const abort = () => fail(new RemoteError(host, "unreachable", `${host}: closed`));
      if (signal?.aborted) queueMicrotask(abort);
      else signal?.addEventListener("abort", abort, { once: true });
      const noiseError = () =>
        new RemoteError(
          host,
          "garbage",
          `${host}: answered something other than pi-sessions ("${sanitizeLine(firstNoise).trim().slice(0, 60)}")`,
        );
      // No hello in time: what it printed instead, if anything, says more than the wait.
      const timer = setTimeout(
        () =>
          fail(
            firstNoise
              ? noiseError()
              : new RemoteError(
                  host,
                  "timeout",
                  `${host}: no answer in ${Math.round(opts.helloTimeoutMs / 1000)} s${lastWords(stderr) ? ` (${lastWords(stderr)})` : ""}`,
                ),
          ),
        opts.helloTimeoutMs,
      );
      const onLine = (line: string) => {
        if (client) return client.onLine(line);
        const h = parseHello(line);
        if ("problem" in h) {
          if (!firstNoise && sanitizeLine(line).trim()) firstNoise = line;
          if (++noise > NOISE_LINES) fail(noiseError());
          return;
        }
        if (h.protocol > PROTOCOL)
          return fail(
            new RemoteError(
              host,
              "too-new",
              `${host}: its pi-sessions (${sanitizeLine(h.version)}) speaks protocol ${h.protocol}, newer than this one's ${PROTOCOL}: update pi-sessions here`,
            ),
          );
        if (h.protocol < PROTOCOL)
          return fail(
            new RemoteError(
              host,
              "too-old",
              `${host}: its pi-sessions (${sanitizeLine(h.version)}) speaks protocol ${h.protocol}, older than this one's ${PROTOCOL} (update it: ${INSTALL_HINT})`,
            ),
          );
        trace(`${host}: hello`);
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", abort);
        client = new RemoteClient(host, h, t, opts);
        client.bytesOut = earlyLines.reduce((n, l) => n + Buffer.byteLength(l), 0);
        // Their answers follow the hello: waited for from now, as any request.
        early.forEach((r, i) => client!.expect(i + 1, r.op));
        resolve(client);
      };
      t.stdout.on("data", (chunk: Buffer) => {
        if (client) client.bytesIn += chunk.length;
        let lines: string[];
        try {
          lines = splitter.push(chunk);
        } catch (e) {
          if (!(e instanceof LineTooLong)) throw e;
          return fail(
            new RemoteError(host, "garbage", `${host}: sent a line over ${MAX_ANSWER_LINE / 1024 / 1024} MiB; stopped`),
          );
        }
        for (const l of lines) onLine(l);
      });
      t.stdout.on("error", () => {});
      void t.exited.then(async (code) => {
        // Let the last of stderr arrive before it is quoted.
        await new Promise((r) => setTimeout(r, 20));
        if (!settled) {
          fail(firstNoise && code === 0 ? noiseError() : startProblem(host, code, stderr));
        } else
          client?.fail(
            new RemoteError(
              host,
              "unreachable",
              `${host}: the connection ended${lastWords(stderr) ? ` (${lastWords(stderr)})` : ""}`,
            ),
          );
      });
    });
  }

  /** The conversation has ended: every request fails at once. */
  get ended(): boolean {
    return this.failure !== undefined;
  }

  /** Whether the host answers this request (its hello named it). */
  can(op: Op): boolean {
    return this.hello.capabilities.includes(op);
  }

  /** An early request's answer (once), or undefined when none was sent for `op`. */
  takeEarly(op: Op): Promise<Record<string, unknown>> | undefined {
    const p = this.early.get(op);
    this.early.delete(op);
    return p;
  }

  private expect(id: number, op: Op, timeoutMs = this.opts.requestTimeoutMs): void {
    this.nextId = Math.max(this.nextId, id + 1);
    const answer = this.waitFor(id, op, timeoutMs);
    // Not taken, it must not be an unhandled rejection.
    answer.catch(() => {});
    this.early.set(op, answer);
  }

  private waitFor(id: number, op: Op, timeoutMs: number): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(
          new RemoteError(
            this.host,
            "timeout",
            `${this.host}: no answer to ${op} in ${Math.round(timeoutMs / 1000)} s`,
          ),
        );
      }, timeoutMs);
      this.waiting.set(id, { resolve, reject, timer });
    });
  }

  /** One request; its result, or a RemoteError (refused by the host, timed out, connection gone). */
  request(
    op: Op,
    params: Record<string, unknown> = {},
    timeoutMs = this.opts.requestTimeoutMs,
  ): Promise<Record<string, unknown>> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.can(op))
      return Promise.reject(
        new RemoteError(
          this.host,
          "too-old",
          `${this.host}: its pi-sessions cannot ${op} (update it: ${INSTALL_HINT})`,
        ),
      );
    const id = this.nextId++;
    const answer = this.waitFor(id, op, timeoutMs);
    const line = encodeLine({ id, op, params });
    this.bytesOut += Buffer.byteLength(line);
    this.t.stdin.write(line);
    return answer;
  }

  private onLine(line: string): void {
    if (!line.trim()) return;
    const a = parseAnswer(line);
    if (!a) {
      this.fail(new RemoteError(this.host, "garbage", `${this.host}: sent something other than an answer; stopped`));
      return;
    }
    trace(`${this.host}: answer ${a.id} read (${line.length} characters)`);
    const w = this.waiting.get(a.id);
    if (!w) return; // an answer that came after its deadline
    this.waiting.delete(a.id);
    clearTimeout(w.timer);
    if (a.ok) w.resolve(a.result);
    else
      w.reject(
        new RemoteError(this.host, "refused", `${this.host}: ${sanitizeLine(a.error.message)}`, a.error.exit ?? 1),
      );
  }

  /** Ends every request waiting, and the conversation. */
  fail(e: RemoteError): void {
    if (this.failure) return;
    this.failure = e;
    this.onEnd?.(e);
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(e);
    }
    this.waiting.clear();
    this.t.close();
  }

  /** Ends the conversation: the host's serve sees its input end and exits. */
  close(): void {
    this.failure ??= new RemoteError(this.host, "unreachable", `${this.host}: closed`);
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(this.failure);
    }
    this.waiting.clear();
    this.t.stdin.end();
    // ssh ends once the far side has; if it lingers, it is stopped.
    const t = setTimeout(() => this.t.close(), 2000);
    t.unref();
    void this.t.exited.then(() => clearTimeout(t));
  }
}
