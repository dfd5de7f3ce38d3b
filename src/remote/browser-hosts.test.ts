import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import type { HostUpdate } from "../browser/list/hosts.js";
import { RemoteHosts } from "./browser-hosts.js";
import { RemoteClient, type Transport } from "./client.js";
import { encodeLine, PROTOCOL } from "./protocol.js";

/*
 * How the browser is told what its hosts said: hosts whose list answers come in at once are
 * told in one update (one refresh of the list, one frame), and none waits for long on another.
 */

const OPTS = { helloTimeoutMs: 2000, requestTimeoutMs: 5000 };
const SETTINGS = { ssh: { program: ["ssh"], connectTimeout: 1 }, client: OPTS };
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A far side the test writes by hand. */
function farSide(): { t: Transport; out: PassThrough } {
  const out = new PassThrough();
  let exit!: (code: number | null) => void;
  const exited = new Promise<number | null>((r) => (exit = r));
  return { t: { stdin: new PassThrough(), stdout: out, close: () => exit(null), exited }, out };
}

const HELLO = encodeLine({ "pi-sessions": "serve", protocol: PROTOCOL, version: "t", capabilities: ["list"] });

/** A list answer (to the request sent with the connection's start, id 1) of `n` sessions. */
function listAnswer(host: string, n: number): string {
  const sessions = Array.from({ length: n }, (_, i) => ({
    path: `/home/u/.pi/agent/sessions/--w--/${host}-${i}.jsonl`,
    id: `${host}-${i}`,
    cwd: "/w",
    firstMessage: "x".repeat(200),
    created: "2026-01-01T00:00:00.000Z",
    modified: "2026-01-02T00:00:00.000Z",
  }));
  return encodeLine({ id: 1, ok: true, result: { hash: `${host}-hash`, sessions } });
}

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** Two hosts on far sides of the test's, started as a launch starts them (`hello`: those that say theirs), and what the browser is told. */
function launch(hello: readonly ("a" | "b")[] = ["a", "b"]) {
  const cache = mkdtempSync(join(tmpdir(), "pi-sessions-hosts-"));
  dirs.push(cache);
  const far = { a: farSide(), b: farSide() };
  const hosts = new RemoteHosts(
    ["a", "b"],
    SETTINGS,
    { PI_SESSIONS_CACHE_DIR: cache },
    (host, _ssh, opts, _env, early, signal) => RemoteClient.over(host, far[host as "a" | "b"].t, opts, early, signal),
  );
  hosts.initial();
  const told: HostUpdate[][] = [];
  hosts.subscribe((u) => told.push([...u]));
  hosts.start();
  for (const h of hello) far[h].out.write(HELLO);
  return { hosts, far, told };
}

const rowsTold = (told: HostUpdate[][]) =>
  told.map((us) => us.map((u) => `${u.host.name}:${u.host.state}:${u.sessions?.length ?? "-"}`));

describe("what the browser is told of its hosts", () => {
  it("two hosts' list answers coming in at once: told in one update", async () => {
    const { hosts, far, told } = launch();
    const b = listAnswer("b", 300);
    far.a.out.write(listAnswer("a", 300));
    // b's answer is on its way: its first half here.
    far.b.out.write(b.slice(0, b.length / 2));
    await tick(30);
    expect(told).toEqual([]);
    far.b.out.write(b.slice(b.length / 2));
    await tick(30);
    expect(rowsTold(told)).toEqual([["a:live:300", "b:live:300"]]);
    hosts.close();
  });

  it("a host that answers while the other is still connecting: told at once, alone", async () => {
    const { hosts, far, told } = launch(["a"]);
    far.a.out.write(listAnswer("a", 3));
    await tick(30);
    expect(rowsTold(told)).toEqual([["a:live:3"]]);
    far.b.out.write(HELLO + listAnswer("b", 2));
    await tick(30);
    expect(rowsTold(told)).toEqual([["a:live:3"], ["b:live:2"]]);
    hosts.close();
  });

  it("another answer on its way is waited for a moment, not longer", async () => {
    for (const begun of ["", '{"id":1,"ok":true,"result":{"hash":"b-hash","sessions":[']) {
      const { hosts, far, told } = launch();
      far.a.out.write(listAnswer("a", 3));
      // b said its hello (and began its answer, or not) and says no more.
      far.b.out.write(begun);
      await tick(600);
      expect(rowsTold(told)).toEqual([["a:live:3"]]);
      hosts.close();
    }
  });
});
