// pi 1.5.2 as the tests' oracle: fetched and cached by scripts/pi-oracle.mjs, run in a child
// process under a Node >= 22.19 (pi 1.5.2 does not run on older Node).
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain .mjs script without types
import { ensurePiOracle } from "../../scripts/pi-oracle.mjs";

export interface Oracle {
  node: string;
  bundle: string;
}

let cached: Oracle | { skip: string } | undefined;

/** The oracle, or `{ skip }` with a reason where this platform has no Node 22 binary. */
export function piOracle(): Oracle | { skip: string } {
  cached ??= ensurePiOracle() as Oracle | { skip: string };
  return cached;
}

export function oracleSkipReason(): string | undefined {
  const o = piOracle();
  if ("skip" in o) {
    console.warn(`pi 1.5.2 oracle checks skipped: ${o.skip}`);
    return o.skip;
  }
  return undefined;
}

export type Question =
  | { op: "describe"; file: string; leafId?: string }
  | { op: "treeRows"; file: string; leafId?: string }
  | { op: "listAll"; agentDir?: string; sessionDir?: string }
  | { op: "list"; cwd: string; agentDir?: string; sessionDir?: string }
  | { op: "findById"; cwd: string; id: string; agentDir?: string; sessionDir?: string }
  | { op: "settingsSessionDir"; cwd: string; agentDir: string }
  | { op: "fork"; file: string; leafId: string; outDir: string }
  | { op: "write"; cwd: string; dir: string; id?: string; steps: WriteStep[] }
  | { op: "threaded"; agentDir: string };

/** One step of a session pi writes through its own SessionManager API (see pi-driver.mjs). */
export type WriteStep =
  | { do: "message"; message: Record<string, unknown> }
  | { do: "model"; provider: string; modelId: string }
  | { do: "usage"; kind: string; provider: string; model: string; usage: Record<string, unknown>; note?: string }
  | {
      do: "compaction";
      summary: string;
      firstKept: string | null;
      tokensBefore: number;
      usage?: Record<string, unknown>;
    }
  | { do: "branch"; ref: string }
  | { do: "branchSummary"; ref: string; summary: string; usage?: Record<string, unknown> }
  | { do: "contextEdit"; ref: string; replacement: { content: unknown } | null }
  | { do: "label"; ref: string; label?: string }
  | { do: "name"; name: string }
  | { do: "fork"; ref: string }
  | { do: "reopen" };

/** pi's reading of one session (see pi-driver.mjs). */
export interface PiSession {
  header: Record<string, unknown>;
  entryCount: number;
  leafId: string | null;
  branch: string[];
  name: string | null;
  labels: Record<string, string>;
  tree: unknown[];
  contextRoles: string[];
  contextEntryIds: string[];
  contextMessages: unknown[];
  sessionStats: { tokens: Record<string, number>; cost: number };
}

const DRIVER = fileURLToPath(new URL("./pi-driver.mjs", import.meta.url));

/**
 * Asks pi 1.5.2 a batch of questions in one child process (loading pi takes about a second).
 * Each answer is the value, or throws pi's error message.
 */
export async function askPi<T = unknown>(questions: Question[], opts: { home?: string } = {}): Promise<T[]> {
  const o = piOracle();
  if ("skip" in o) throw new Error(o.skip);
  // A home of its own: pi must read no settings of the machine it runs on.
  const home = opts.home ?? mkdtempSync(join(tmpdir(), "pi15-home-"));
  const env = { PATH: process.env.PATH ?? "", HOME: home, USERPROFILE: home, PI_OFFLINE: "1", NO_COLOR: "1" };
  const out = await new Promise<string>((resolve, reject) => {
    const child = execFile(
      o.node,
      [DRIVER, o.bundle],
      { env, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`pi 1.5.2 driver failed: ${err.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
    child.stdin!.end(JSON.stringify(questions));
  });
  const answers = JSON.parse(out) as ({ ok: T } | { error: string })[];
  return answers.map((a, i) => {
    if ("error" in a) throw new Error(`pi 1.5.2: ${questions[i].op}: ${a.error}`);
    return a.ok;
  });
}
