import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { deflateRawSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "../../test/helpers/tmp-store.js";
import { RemoteClient, RemoteError, type Transport } from "./client.js";
import { encodeLine, LineSplitter, LineTooLong, MAX_ANSWER_LINE, PROTOCOL } from "./protocol.js";
import { serve } from "./server.js";
import { LIST_PACKED, listRows, usageByPath } from "./hosts.js";
import { aggregateUsage } from "../usage/aggregate.js";
import { hostProblem, remoteCommandLine, remoteResumeLine, splitWords, sshArgv } from "./ssh.js";

afterEach(cleanupTmp);

const OPTS = { helloTimeoutMs: 2000, requestTimeoutMs: 5000 };

/** A server on in-memory streams, and a client talking to it. */
async function pair(store: string) {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const done = serve({ input: toServer, output: fromServer, env: {}, cwd: "/", sessionDir: store, version: "test" });
  let closed = false;
  const t: Transport = {
    stdin: toServer,
    stdout: fromServer,
    close: () => {
      closed = true;
      toServer.end();
    },
    exited: done.then(() => 0),
  };
  const client = await RemoteClient.over("box", t, OPTS);
  return { client, done, closed: () => closed, toServer, fromServer };
}

/** A client facing a far side the test writes by hand. */
function facing() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let exit!: (code: number | null) => void;
  const exited = new Promise<number | null>((r) => (exit = r));
  let closed = false;
  const t: Transport = {
    stdin,
    stdout,
    stderr,
    close: () => {
      closed = true;
      exit(null);
    },
    exited,
  };
  return { t, stdin, stdout, stderr, exit, closed: () => closed };
}

const sessionsOf = (store: string, r: Record<string, unknown>) =>
  (r.sessions as { path: string; id: string }[]).filter((s) => s.path.startsWith(store));

describe("line framing", () => {
  it("cuts lines across chunks and keeps a line's bytes whole (multi-byte characters split between chunks)", () => {
    const s = new LineSplitter(100);
    const bytes = Buffer.from('{"a":"é"}\n{"b":1}\n{"c"');
    expect(s.push(bytes.subarray(0, 7))).toEqual([]);
    expect(s.push(bytes.subarray(7))).toEqual(['{"a":"é"}', '{"b":1}']);
    expect(s.pending).toBe(4);
    expect(s.push(Buffer.from(":2}\n"))).toEqual(['{"c":2}']);
  });

  it("refuses a line longer than its limit as soon as the bytes come, never assembling it", () => {
    const s = new LineSplitter(10);
    s.push(Buffer.from("12345"));
    expect(() => s.push(Buffer.from("678901"))).toThrow(LineTooLong);
    expect(() => new LineSplitter(10).push(Buffer.from("123456789012\n"))).toThrow(LineTooLong);
  });

  it("writes every message as one line, C1 controls and line separators escaped", () => {
    const line = encodeLine({ text: "a\nb\u009b31m\u2028" });
    expect(line.indexOf("\n")).toBe(line.length - 1);
    expect(line).not.toMatch(/[\u0080-\u009f\u2028]/);
    expect(JSON.parse(line)).toEqual({ text: "a\nb\u009b31m\u2028" });
  });
});

describe("serve and its client over in-memory streams", () => {
  it("says hello first, with its protocol and what it answers", async () => {
    const store = copyStore(PI_STORE);
    const { client, toServer, done } = await pair(store);
    expect(client.hello.protocol).toBe(PROTOCOL);
    expect(client.hello.capabilities).toEqual(expect.arrayContaining(["list", "search", "read", "rename", "delete"]));
    toServer.end();
    await done;
  });

  it("lists the store with list --json's rows, and an unchanged store in a few bytes", async () => {
    const store = copyStore(PI_STORE);
    const { client, toServer, done, fromServer } = await pair(store);
    let line = "";
    fromServer.on("data", (b: Buffer) => (line += b.toString()));
    const first = await client.request("list", { all: true });
    const rows = sessionsOf(store, first);
    expect(rows.length).toBeGreaterThan(10);
    // As list --json printed it, without its line breaks and indentation: every byte sent is read.
    expect(line).toContain(`[{"path": ${JSON.stringify(rows[0].path)},"id": `);
    expect(line.length).toBeLessThan(JSON.stringify(first).length * 1.1);
    // Each row with its file's inode and mtime there: what a write names as the file it read.
    const st = statSync(rows[0].path);
    expect(listRows(first)![0]).toMatchObject({ path: rows[0].path, ino: st.ino, mtimeMs: st.mtimeMs });
    const before = client.bytesIn;
    const again = await client.request("list", { all: true, since: first.hash });
    expect(again).toEqual({ hash: first.hash, unchanged: true });
    expect(client.bytesIn - before).toBeLessThan(200);
    // A change on the server's side: the whole answer again.
    appendFileSync(rows[0].path, "");
    await new Promise((r) => setTimeout(r, 5));
    const { renameSession } = await import("../actions/rename.js");
    await renameSession(rows[0].path, "changed there");
    const third = await client.request("list", { all: true, since: first.hash });
    expect(third.unchanged).toBeUndefined();
    expect(sessionsOf(store, third).find((s) => s.path === rows[0].path)).toMatchObject({ name: "changed there" });
    toServer.end();
    await done;
  });

  it("asked deflated, sends the same rows in a fraction of the bytes; what inflates past an answer line is no list", async () => {
    const store = copyStore(PI_STORE);
    const { client, toServer, done } = await pair(store);
    const plain = await client.request("list", { all: true });
    let before = client.bytesIn;
    const packed = await client.request("list", { all: true, ...LIST_PACKED });
    const packedBytes = client.bytesIn - before;
    expect(packed.sessions).toBeUndefined();
    expect(typeof packed.sessionsDeflated).toBe("string");
    expect(packed.hash).toBe(plain.hash);
    expect(listRows(packed)).toEqual(listRows(plain));
    before = client.bytesIn;
    await client.request("list", { all: true });
    expect(packedBytes).toBeLessThan((client.bytesIn - before) / 2);
    // Unchanged: a few bytes, deflated or not.
    expect(await client.request("list", { all: true, ...LIST_PACKED, since: plain.hash })).toEqual({
      hash: plain.hash,
      unchanged: true,
    });
    // A bomb: a small answer that inflates past MAX_ANSWER_LINE is refused, not inflated whole.
    const bomb = deflateRawSync(Buffer.alloc(MAX_ANSWER_LINE + 1, 0x20)).toString("base64");
    expect(bomb.length).toBeLessThan(200_000);
    expect(listRows({ hash: "h", sessionsDeflated: bomb })).toBeUndefined();
    expect(listRows({ hash: "h", sessionsDeflated: "not deflate" })).toBeUndefined();
    toServer.end();
    await done;
  });

  it("sends every session's usage by day and model, compact: the same sums as its own stats", async () => {
    const store = copyStore(PI_STORE);
    const { client, toServer, done } = await pair(store);
    expect(client.can("usage")).toBe(true);
    const byPath = usageByPath(await client.request("usage"))!;
    const listed = sessionsOf(store, await client.request("list", { all: true }));
    expect([...byPath.keys()].sort()).toEqual(listed.map((s) => s.path).sort());
    const here = aggregateUsage(
      [...byPath.values()].map((usage) => ({ cwd: "", usage })),
      "model",
    );
    const there = (await client.request("stats", { all: true, by: "model" })).json as {
      cost: number;
      tokens: { total: number };
      groups: { key: string }[];
    };
    expect(here.total.total).toBeGreaterThan(0);
    expect(here.total.total).toBe(there.tokens.total);
    expect(here.total.cost).toBeCloseTo(there.cost, 5);
    expect(here.groups.map((g) => g.key)).toEqual(there.groups.map((g) => g.key));
    toServer.end();
    await done;
  });

  it("takes a usage answer's slices only when they are figures (another machine's text)", () => {
    const m = usageByPath({
      usage: [
        [
          "/s/a.jsonl",
          [
            ["2026-11-20", "m", 1, 2, 3, 4, 0.5],
            ["2026-11-20", "m", -1, 0, 0, 0, 0],
            ["d", "m", 1, 2, 3, 4, "1"],
          ],
        ],
        ["/s/b.jsonl", "no"],
        [7, []],
      ],
    })!;
    expect([...m.keys()]).toEqual(["/s/a.jsonl"]);
    expect(m.get("/s/a.jsonl")).toEqual([
      { day: "2026-11-20", model: "m", input: 1, output: 2, cacheRead: 3, cacheWrite: 4, cost: 0.5 },
    ]);
    expect(usageByPath({ usage: "x" })).toBeUndefined();
  });

  it("answers requests at once, each by its id", async () => {
    const store = copyStore(PI_STORE);
    const { client, toServer, done } = await pair(store);
    const [a, b, c] = await Promise.all([
      client.request("search", { query: "refactor", all: true }),
      client.request("list", { all: true }),
      client.request("search", { query: "zzzznothing", all: true }),
    ]);
    expect((a.json as unknown[]).length).toBeGreaterThan(0);
    expect(sessionsOf(store, b).length).toBeGreaterThan(10);
    expect(c.json).toEqual([]);
    toServer.end();
    await done;
  });

  it("reads a session's bytes from an offset, and refuses a path outside its store", async () => {
    const store = copyStore(PI_STORE);
    const { client, toServer, done } = await pair(store);
    const [row] = sessionsOf(store, await client.request("list", { all: true }));
    const whole = readFileSync(row.path);
    const r = await client.request("read", { path: row.path, offset: 10 });
    expect(Buffer.from(String(r.data), "base64").equals(whole.subarray(10))).toBe(true);
    expect(r).toMatchObject({ offset: 10, bytes: whole.length, ino: statSync(row.path).ino });
    await expect(client.request("read", { path: "/etc/passwd" })).rejects.toThrow(/not a session of this store/);
    await expect(client.request("read", { path: join(store, "..", "x.jsonl") })).rejects.toThrow(/not a session/);
    // Another file than the one the client holds a copy of: from the start.
    const other = await client.request("read", { path: row.path, offset: 10, ino: -1 });
    expect(other.offset).toBe(0);
    toServer.end();
    await done;
  });

  it("writes by the same code with the same checks: a label on a file that changed since it was read is refused", async () => {
    const store = copyStore(PI_STORE);
    const { client, toServer, done } = await pair(store);
    const [row] = sessionsOf(store, await client.request("list", { all: true }));
    const show = await client.request("show", { session: row.path, json: true });
    const entryId = (show.json as { leafId: string }).leafId;
    const st = statSync(row.path);
    const was = { ino: st.ino, bytes: st.size, mtimeMs: st.mtimeMs };
    const ok = await client.request("label", { path: row.path, entryId, label: "there", expect: was });
    expect(ok.label).toBe("there");
    expect(readFileSync(row.path, "utf8")).toContain('"label":"there"');
    // Rewritten at the same size: not the file read.
    const text = readFileSync(row.path);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(row.path, text);
    const now = statSync(row.path);
    await expect(
      client.request("label", {
        path: row.path,
        entryId,
        label: "again",
        expect: { ino: now.ino, bytes: now.size, mtimeMs: now.mtimeMs - 5000 },
      }),
    ).rejects.toThrow(/changed since it was read/);
    toServer.end();
    await done;
  });

  it("runs the command line's own commands: a missing session is the command's own error, with its exit status", async () => {
    const store = copyStore(PI_STORE);
    const { client, toServer, done } = await pair(store);
    const e = await client.request("show", { session: "no-such-id" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RemoteError);
    expect((e as RemoteError).message).toMatch(/^box: no session matches 'no-such-id'/);
    expect((e as RemoteError).exit).toBe(1);
    // A session argument that looks like an option is still a session there.
    const e2 = await client.request("show", { session: "--json" }).catch((x: unknown) => x);
    expect((e2 as RemoteError).message).toMatch(/no session/);
    toServer.end();
    await done;
  });

  it("answers a line that is no request, and stops at a request line over its limit", async () => {
    const store = copyStore(PI_STORE);
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    let out = "";
    fromServer.on("data", (b: Buffer) => (out += b.toString()));
    const done = serve({ input: toServer, output: fromServer, env: {}, cwd: "/", sessionDir: store, version: "t" });
    toServer.write("garbage\n");
    toServer.write('{"id":7,"op":"nope"}\n');
    await new Promise((r) => setTimeout(r, 50));
    toServer.write("x".repeat(2 * 1024 * 1024));
    await done;
    const lines = out.trim().split("\n");
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[1]).error.message).toMatch(/one JSON object per line/);
    expect(JSON.parse(lines[2])).toEqual({ id: 7, ok: false, error: { message: "unknown request 'nope'", exit: 2 } });
    expect(JSON.parse(lines[3]).error.message).toMatch(/over \d+ bytes/);
  });
});

describe("a request sent with the connection's start", () => {
  it("is written before the hello comes, its answer taken once; later requests take the next ids", async () => {
    const f = facing();
    let sent = "";
    f.stdin.on("data", (b: Buffer) => (sent += b.toString()));
    const opening = RemoteClient.over("box", f.t, OPTS, [{ op: "list", params: { all: true } }]);
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toBe('{"id":1,"op":"list","params":{"all":true}}\n');
    f.stdout.write(
      encodeLine({ "pi-sessions": "serve", protocol: PROTOCOL, version: "t", capabilities: ["list", "stats"] }) +
        encodeLine({ id: 1, ok: true, result: { rows: 3 } }),
    );
    const client = await opening;
    expect(await client.takeEarly("list")).toEqual({ rows: 3 });
    expect(client.takeEarly("list")).toBeUndefined();
    const stats = client.request("stats");
    await new Promise((r) => setTimeout(r, 0));
    expect(sent.split("\n")[1]).toBe('{"id":2,"op":"stats","params":{}}');
    f.stdout.write(encodeLine({ id: 2, ok: true, result: { by: "day" } }));
    expect(await stats).toEqual({ by: "day" });
  });

  it("given up before the hello (the program ends), it stops the far side at once", async () => {
    const f = facing();
    const ac = new AbortController();
    const opening = RemoteClient.over("box", f.t, OPTS, [], ac.signal);
    ac.abort();
    await expect(opening).rejects.toThrow("box: closed");
    expect(f.closed()).toBe(true);
  });

  it("a real server answers it after its hello", async () => {
    const store = copyStore(PI_STORE);
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const t: Transport = {
      stdin: toServer,
      stdout: fromServer,
      close: () => toServer.end(),
      exited: new Promise(() => {}),
    };
    const opening = RemoteClient.over("box", t, OPTS, [{ op: "list", params: { all: true } }]);
    const done = serve({ input: toServer, output: fromServer, env: {}, cwd: "/", sessionDir: store, version: "test" });
    const client = await opening;
    expect(sessionsOf(store, (await client.takeEarly("list"))!).length).toBeGreaterThan(10);
    toServer.end();
    await done;
  });
});

describe("a far side that is not a good pi-sessions", () => {
  it("a newer protocol: said in one line, never guessed at", async () => {
    const f = facing();
    const opening = RemoteClient.over("box", f.t, OPTS);
    f.stdout.write(encodeLine({ "pi-sessions": "serve", protocol: PROTOCOL + 1, version: "9.9.9", capabilities: [] }));
    await expect(opening).rejects.toThrow(
      /box: its pi-sessions \(9\.9\.9\) speaks protocol 2, newer than this one's 1/,
    );
    expect(f.closed()).toBe(true);
  });

  it("an older protocol, or no serve at all, says how to install it there", async () => {
    const f = facing();
    const opening = RemoteClient.over("box", f.t, OPTS);
    f.stdout.write(encodeLine({ "pi-sessions": "serve", protocol: 0, version: "0.0.1", capabilities: [] }));
    await expect(opening).rejects.toThrow(/npm install -g pi-sessions/);
    const g = facing();
    const opening2 = RemoteClient.over("box", g.t, OPTS);
    g.stderr.write("pi-sessions: unknown command 'serve' (see pi-sessions --help)\n");
    g.exit(2);
    await expect(opening2).rejects.toThrow(/too old to serve.*npm install -g pi-sessions/);
    const h = facing();
    const opening3 = RemoteClient.over("box", h.t, OPTS);
    h.stderr.write("sh: 1: pi-sessions: not found\n");
    h.exit(127);
    await expect(opening3).rejects.toThrow(/box: pi-sessions is not installed there \(install it there with/);
  });

  it("garbage and escape sequences: a clear line, sanitized", async () => {
    const f = facing();
    const opening = RemoteClient.over("box", f.t, OPTS);
    for (let i = 0; i < 60; i++) f.stdout.write("\x1b]0;pwned\x07\x1b[2J junk line\n");
    const e = await opening.catch((x: unknown) => x as Error);
    expect(e.message).toMatch(/box: answered something other than pi-sessions/);
    expect(e.message).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });

  it("an error message with escape sequences reaches the user without them", async () => {
    const f = facing();
    const opening = RemoteClient.over("box", f.t, OPTS);
    f.stdout.write(encodeLine({ "pi-sessions": "serve", protocol: PROTOCOL, version: "1", capabilities: ["show"] }));
    const client = await opening;
    const asked = client.request("show", { session: "x" });
    f.stdout.write(`{"id":1,"ok":false,"error":{"message":"\\u001b[31mred\\u001b]0;title\\u0007 \\u009b2J"}}\n`);
    const e = await asked.catch((x: unknown) => x as Error);
    expect(e.message).toBe("box: red ");
  });

  it("a hang: the hello and each answer have a deadline", async () => {
    const f = facing();
    const opening = RemoteClient.over("box", f.t, { helloTimeoutMs: 100, requestTimeoutMs: 100 });
    await expect(opening).rejects.toThrow(/box: no answer in 0 s/);
    const g = facing();
    const opening2 = RemoteClient.over("box", g.t, { helloTimeoutMs: 1000, requestTimeoutMs: 100 });
    g.stdout.write(encodeLine({ "pi-sessions": "serve", protocol: PROTOCOL, version: "1", capabilities: ["list"] }));
    const client = await opening2;
    await expect(client.request("list")).rejects.toThrow(/no answer to list/);
  });

  it("a line without end: stopped at its limit, not read to its end", async () => {
    const f = facing();
    const opening = RemoteClient.over("box", f.t, OPTS);
    f.stdout.write(encodeLine({ "pi-sessions": "serve", protocol: PROTOCOL, version: "1", capabilities: ["list"] }));
    const client = await opening;
    const asked = client.request("list");
    const mib = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i <= MAX_ANSWER_LINE / mib.length && !f.closed(); i++) f.stdout.write(mib);
    await expect(asked).rejects.toThrow(/sent a line over 64 MiB; stopped/);
    expect(f.closed()).toBe(true);
  });

  it("a connection that ends mid-request fails that request at once", async () => {
    const f = facing();
    const opening = RemoteClient.over("box", f.t, OPTS);
    f.stdout.write(encodeLine({ "pi-sessions": "serve", protocol: PROTOCOL, version: "1", capabilities: ["list"] }));
    const client = await opening;
    const asked = client.request("list");
    f.stderr.write("Connection to 127.0.0.1 closed by remote host.\n");
    f.exit(255);
    await expect(asked).rejects.toThrow(/box: the connection ended \(Connection to 127.0.0.1 closed by remote host.\)/);
  });
});

describe("ssh's command line", () => {
  it("refuses a host name that ssh would take for an option", () => {
    expect(hostProblem("-oProxyCommand=touch /tmp/x")).toMatch(/starts with '-'/);
    expect(hostProblem("devbox")).toBeUndefined();
    expect(hostProblem("me@devbox.example.com")).toBeUndefined();
    expect(hostProblem("a b")).toMatch(/not a host name/);
    expect(() => sshArgv("-oProxyCommand=x", "true", { program: ["ssh"], connectTimeout: 5 })).toThrow(/starts with/);
  });

  it("never prompts, times out, multiplexes in a private folder, and ends its options before the host", () => {
    const [program, args] = sshArgv("devbox", "cmd", {
      program: ["ssh", "-F", "my config"],
      connectTimeout: 5,
      controlDir: "/run/x",
    });
    expect(program).toBe("ssh");
    expect(args.slice(0, 2)).toEqual(["-F", "my config"]);
    expect(args).toEqual(expect.arrayContaining(["BatchMode=yes", "ConnectTimeout=5", "ControlMaster=auto"]));
    expect(args.find((a) => a.startsWith("ControlPath="))).toMatch(/^ControlPath=\/run\/x\/[0-9a-f]{12}-%C$/);
    expect(args.slice(-3)).toEqual(["--", "devbox", "cmd"]);
  });

  it("splits PI_SESSIONS_SSH as a shell would, running nothing", () => {
    expect(splitWords(`ssh -F "./my config" -o 'A=b c' x\\ y`)).toEqual([
      "ssh",
      "-F",
      "./my config",
      "-o",
      "A=b c",
      "x y",
    ]);
    expect(splitWords("ssh $(touch /tmp/p)")).toEqual(["ssh", "$(touch", "/tmp/p)"]);
  });

  it("quotes every word for the remote shell: quotes, $() and newlines arrive as they are", () => {
    const words = ["printf", "%s|", "it's", "$(echo no)", "a\nb", "`x`", "\\"];
    const r = spawnSync("sh", ["-c", remoteCommandLine(words)], { encoding: "utf8" });
    expect(r.stdout).toBe("it's|$(echo no)|a\nb|`x`|\\|");
  });

  it("resumes in the session's folder on the host; a folder gone there is left to pi (run where the shell starts)", () => {
    const root = makeTmpDir();
    const login = join(root, "home");
    mkdirSync(login);
    // pi's stand-in: prints the folder it runs in, then its arguments.
    const pi = ["sh", "-c", 'printf "%s|" "$(pwd)" "$@"', "pi"];
    const run = (cwd: string) =>
      spawnSync("sh", ["-c", remoteResumeLine(cwd, "/s/a'b\n.jsonl", pi)], { cwd: login, encoding: "utf8" });
    const folder = join(root, "it's $(x)");
    mkdirSync(folder);
    expect(run(folder).stdout).toBe(`${folder}|--session|/s/a'b\n.jsonl|`);
    // Gone: pi runs in the login folder and asks about it itself (pi 1.6.0's own question).
    const gone = run(join(root, "gone"));
    expect(gone.stdout).toBe(`${login}|--session|/s/a'b\n.jsonl|`);
    expect(gone.stderr).toBe("");
    // There but no folder: the shell's error, and no pi.
    writeFileSync(join(root, "file"), "");
    const file = run(join(root, "file"));
    expect(file.stdout).toBe("");
    expect(file.status).not.toBe(0);
    expect(file.stderr).toMatch(/cd/);
  });
});
