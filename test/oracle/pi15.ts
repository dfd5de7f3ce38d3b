// pi as the tests' oracle, 1.5.2 unless a test names another version (1.6.0, the reference:
// PI_REFERENCE): fetched and cached by scripts/pi-oracle.mjs, run in a child process under a
// Node >= 22.19 (pi 1.5 and later do not run on older Node).
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain .mjs script without types
import {
  ensurePiOracle,
  PI_REFERENCE as REFERENCE,
  PI_VERSION,
  PI_VERSIONS as VERSIONS,
} from "../../scripts/pi-oracle.mjs";

/** The version a test gets when it names none. */
export const DEFAULT_PI = PI_VERSION as string;
/** The reference pi (1.6.0). */
export const PI_REFERENCE = REFERENCE as string;
/** Every pi version the oracle can fetch. */
export const PI_VERSIONS = VERSIONS as readonly string[];

export interface Oracle {
  node: string;
  bundle: string;
}

const cached = new Map<string, Oracle | { skip: string }>();

/** The oracle, or `{ skip }` with a reason where this platform has no Node 22 binary. */
export function piOracle(version = DEFAULT_PI): Oracle | { skip: string } {
  let o = cached.get(version);
  if (!o) cached.set(version, (o = ensurePiOracle(version) as Oracle | { skip: string }));
  return o;
}

export function oracleSkipReason(version = DEFAULT_PI): string | undefined {
  const o = piOracle(version);
  if ("skip" in o) {
    console.warn(`pi ${version} oracle checks skipped: ${o.skip}`);
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
  | { op: "threaded"; agentDir: string }
  /** The paths pi's /resume picker shows for each query, over listAll's sessions. */
  | { op: "picker"; queries: string[]; agentDir?: string; sessionDir?: string };

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
 * Asks pi (1.5.2, or `opts.version`) a batch of questions in one child process (loading pi
 * takes about a second). Each answer is the value, or throws pi's error message.
 */
export async function askPi<T = unknown>(
  questions: Question[],
  opts: { home?: string; version?: string } = {},
): Promise<T[]> {
  const version = opts.version ?? DEFAULT_PI;
  const o = piOracle(version);
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
        if (err) reject(new Error(`pi ${version} driver failed: ${err.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
    child.stdin!.end(JSON.stringify(questions));
  });
  const answers = JSON.parse(out) as ({ ok: T } | { error: string })[];
  return answers.map((a, i) => {
    if ("error" in a) throw new Error(`pi ${version}: ${questions[i].op}: ${a.error}`);
    return a.ok;
  });
}
