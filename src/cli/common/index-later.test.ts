import { EventEmitter } from "node:events";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ChildProcess, SpawnOptions } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../../../test/helpers/tmp-store.js";
import { BACKGROUND_ENV, indexLater, type Spawn } from "./index-later.js";
import { takeIndexerLock } from "./indexer-lock.js";
import type { CliIO } from "./io.js";

afterAll(cleanupTmp);

function setUp(env: NodeJS.ProcessEnv = {}) {
  const dir = join(makeTmpDir(), "index");
  mkdirSync(dir, { mode: 0o700 });
  const indexPath = join(dir, "store-1.sqlite");
  const io: CliIO = {
    stdout: () => {},
    stderr: () => {},
    cwd: dir,
    env,
    isTTY: true,
    program: "/opt/pi-sessions/cli.js",
  };
  const calls: Array<{ command: string; args: string[]; options: SpawnOptions; unref: boolean; child: EventEmitter }> =
    [];
  const spawn: Spawn = (command, args, options) => {
    const child = new EventEmitter();
    const call = { command, args, options, unref: false, child };
    calls.push(call);
    return Object.assign(child, { pid: 4242, unref: () => void (call.unref = true) }) as unknown as ChildProcess;
  };
  return { indexPath, io, calls, spawn };
}

describe("indexLater", () => {
  it("starts `pi-sessions index` once asked: under nice 19, detached, no terminal, marked as the background indexer", () => {
    const { indexPath, io, calls, spawn } = setUp({ PI_SESSIONS_CACHE_DIR: "/c" });
    const later = indexLater(indexPath, "/store", io, spawn)!;
    expect(later.running).toBe(false);
    expect(calls).toHaveLength(0); // nothing until the search has answered
    later.start();
    expect(calls).toHaveLength(1);
    const [{ command, args, options, unref }] = calls;
    if (process.platform !== "win32") {
      expect(command).toBe("nice");
      expect(args).toEqual([
        "-n",
        "19",
        process.execPath,
        "/opt/pi-sessions/cli.js",
        "index",
        "--quiet",
        "--session-dir",
        "/store",
      ]);
    }
    expect(options).toMatchObject({ detached: true, stdio: "ignore" });
    expect(options.env).toEqual({ PI_SESSIONS_CACHE_DIR: "/c", [BACKGROUND_ENV]: "1" });
    expect(unref).toBe(true);
  });

  it("a child that cannot start (no `nice`) fails nothing", () => {
    const { indexPath, io, calls, spawn } = setUp();
    indexLater(indexPath, "/store", io, spawn)!.start();
    // An emitter's "error" with no listener would throw (and end the search that started it).
    expect(() =>
      calls[0].child.emit("error", Object.assign(new Error("spawn nice ENOENT"), { code: "ENOENT" })),
    ).not.toThrow();
  });

  it("says one runs already, and starts none, while another holds the lock", () => {
    const { indexPath, io, calls, spawn } = setUp();
    const lock = takeIndexerLock(indexPath)!;
    try {
      const later = indexLater(indexPath, "/store", io, spawn)!;
      expect(later.running).toBe(true);
      later.start();
      expect(calls).toHaveLength(0);
    } finally {
      lock.release();
    }
    expect(indexLater(indexPath, "/store", io, spawn)!.running).toBe(false);
  });

  it("none in-process (no program), with the index off, or with background indexing off", () => {
    for (const [env, program] of [
      [{}, undefined],
      [{ PI_SESSIONS_INDEX: "0" }, "/p"],
      [{ PI_SESSIONS_INDEX_BACKGROUND: "0" }, "/p"],
    ] as const) {
      const { indexPath, io, spawn } = setUp(env);
      expect(indexLater(indexPath, "/store", { ...io, program }, spawn)).toBeUndefined();
    }
  });
});
