#!/usr/bin/env node
// Issue 36 benchmark: other machines' stores over SSH, on loopback (so it measures our
// overhead, not a network): a real sshd on 127.0.0.1 (test/helpers/sshd.ts) with two hosts
// of 2,000 sessions each, and the same 2,000 here.
//
//   node bench/remote.mjs [--runs N]
//
// - first remote rows: browser launch (--all --host a --host b, nothing kept yet) → the
//   header says both hosts answered (their rows are in the list), in a pty;
// - relaunch with kept answers: launch → every machine's 6,000 rows on the screen, beside the
//   same relaunch without hosts (2,000 rows);
// - search across three stores: `search --json -a --host a --host b WORD`, beside this machine's alone;
// - bytes per host: one `list` answer, and a refresh of an unchanged host (the kept hash sent).
// Exports { name, description, stores, run } for bench/run.mjs.
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";
import { CLI, ROOT, ensureStore, fmtMs, measureNode, median, ok } from "./lib.mjs";
import { launchInPty } from "./pty.mjs";

export const name = "remote";
export const description =
  "issue 36: two hosts × 2,000 sessions over ssh on loopback: first rows, relaunch, search, bytes";
export const stores = ["s2000-small"];

const HOSTS = ["bench-a", "bench-b"];
const fmtKB = (b) => `${(b / 1024).toFixed(1)} KB`;

export async function run({ runs = 3, log = console.error } = {}) {
  const { startSshd } = await tsImport("../test/helpers/sshd.ts", import.meta.url);
  const { sessionsDir } = ensureStore("s2000-small", log);
  const sshd = await startSshd(HOSTS, (h) => {
    // Each host's store: the generated one (read only: nothing here writes).
    rmSync(h.store, { recursive: true });
    symlinkSync(sessionsDir, h.store);
  });
  if ("skip" in sshd) return { rows: [], notes: [`skipped: ${sshd.skip}`] };
  const cache = mkdtempSync(join(tmpdir(), "pi-sessions-bench-remote-"));
  const env = { ...sshd.env, PI_SESSIONS_CACHE_DIR: cache, CI: undefined, NO_COLOR: undefined };
  const hostArgs = HOSTS.flatMap((h) => ["--host", h]);
  try {
    // Every store's index built first (here and there): the launches below are relaunches.
    ok(await measureNode([CLI, "index", "--session-dir", sessionsDir], { env }), "index here");
    const warm = await measureNode([CLI, "list", "-a", "--json", "--session-dir", sessionsDir, ...hostArgs], {
      env,
      stdout: "capture",
    });
    ok(warm, "warm-up");
    // The rows each machine lists (the generated store holds a few files that are no sessions).
    const n = JSON.parse(warm.stdout).length / 3;

    const launch = async (args, check) => {
      const app = launchInPty(process.execPath, [CLI, "--all", "--session-dir", sessionsDir, ...args], {
        // Wide enough for the header to name every host's state.
        cols: 200,
        rows: 40,
        cwd: ROOT,
        env,
      });
      try {
        return await app.waitFor(check, { timeoutMs: 60_000 });
      } finally {
        // Quit and wait for the exit (its hosts' conversations closed, their answers kept): a
        // launch still ending would share the cores with the next one measured.
        await app.quit();
      }
    };
    const header = (s) => s.split("\n")[0];
    const answered = (s) =>
      HOSTS.every((h) => header(s).includes(`${h} ✓`)) && header(s).includes(` ${3 * n}/${3 * n} `);
    const keptShown = (s) => header(s).includes(`every host · ${3 * n}/${3 * n} `);
    const localShown = (s) => header(s).includes(`all folders · ${n}/${n} `);

    const first = [];
    const kept = [];
    const local = [];
    for (let i = 0; i < runs; i++) {
      rmSync(join(cache, "remote"), { recursive: true, force: true });
      first.push(await launch(hostArgs, answered));
      kept.push(await launch(hostArgs, keptShown));
      local.push(await launch([], localShown));
    }

    const word = "keyboard";
    const searchBoth = [];
    const searchLocal = [];
    for (let i = 0; i < runs; i++) {
      const r = await measureNode([CLI, "search", "--json", "-a", "--session-dir", sessionsDir, ...hostArgs, word], {
        env,
      });
      ok(r, "search across three stores");
      searchBoth.push(r.wallMs);
      const l = await measureNode([CLI, "search", "--json", "-a", "--session-dir", sessionsDir, word], { env });
      ok(l, "search here");
      searchLocal.push(l.wallMs);
    }

    // Bytes on the wire for one host: a list answer, then a refresh of the unchanged host.
    const { RemoteClient } = await import(join(ROOT, "dist", "src", "remote", "client.js"));
    const { remoteSettings, LIST_PACKED } = await import(join(ROOT, "dist", "src", "remote", "hosts.js"));
    const settings = remoteSettings({ ...process.env, ...env });
    const client = await RemoteClient.open(HOSTS[0], settings.ssh, settings.client, { ...process.env, ...env });
    const hello = client.bytesIn;
    // Asked as the browser asks (deflated, where the host can).
    const full = await client.request("list", { all: true, ...LIST_PACKED });
    const listBytes = client.bytesIn - hello;
    const before = client.bytesIn;
    const sentBefore = client.bytesOut;
    await client.request("list", { all: true, ...LIST_PACKED, since: full.hash });
    const refreshIn = client.bytesIn - before;
    const refreshOut = client.bytesOut - sentBefore;
    client.close();

    const m = (xs) => median(xs);
    const ratio = m(kept) / m(local);
    return {
      rows: [
        {
          metric: "Two hosts of 2,000 sessions (loopback): launch → both hosts' rows in the list (nothing kept yet)",
          // Beside the local relaunch of the same moment: what the hosts add, read through the machine's load.
          ours: `${fmtMs(m(first))} (${(m(first) / m(local)).toFixed(2)}× the relaunch without hosts)`,
          target: "≤ 1 s",
          pi: "—",
          ratio: "",
          result: m(first) <= 1000 ? "PASS" : "FAIL",
        },
        {
          metric: "… relaunch with kept answers → every machine's 6,000 rows on the screen",
          ours: `${fmtMs(m(kept))} (${ratio.toFixed(2)}× the relaunch without hosts, ${fmtMs(m(local))})`,
          target: "≤ 1.2× the local relaunch",
          pi: "—",
          ratio: "",
          result: ratio <= 1.2 ? "PASS" : "FAIL",
        },
        {
          metric: `… \`search --json -a\` across three stores (here and two hosts), "${word}"`,
          ours: `${fmtMs(m(searchBoth))} (this machine's alone: ${fmtMs(m(searchLocal))})`,
          target: "(info)",
          pi: "—",
          ratio: "",
          result: "",
        },
        {
          metric: "… bytes from one host: its list answer / a refresh of it unchanged (sent: the request)",
          ours: `${fmtKB(listBytes)} / ${fmtKB(refreshIn)} (${refreshOut} B sent)`,
          target: "refresh ≤ 64 KB",
          pi: "—",
          ratio: "",
          result: refreshIn <= 64 * 1024 ? "PASS" : "FAIL",
        },
      ],
      notes: [`first launches each: ${first.map(fmtMs).join(", ")} (the first opens the ssh connection)`],
    };
  } finally {
    await sshd.stop();
    rmSync(cache, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 3;
  const r = await run({ runs });
  for (const row of r.rows) console.log(`${row.metric}: ${row.ours} (target ${row.target}) ${row.result}`);
  for (const n of r.notes) console.log(n);
}
