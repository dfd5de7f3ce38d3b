import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

describe("trace (PI_SESSIONS_TRACE)", () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-trace-"));
  afterEach(() => {
    delete process.env.PI_SESSIONS_TRACE;
    vi.resetModules();
  });

  it("appends a line per step: wall clock, process time, pid, the step", async () => {
    const file = join(dir, "t.txt");
    process.env.PI_SESSIONS_TRACE = file;
    vi.resetModules();
    const { trace, tracing } = await import("./trace.js");
    expect(tracing).toBe(true);
    trace("started");
    trace("devbox: hello");
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    const [wall, now, pid, ...what] = lines[1].split(" ");
    expect(what.join(" ")).toBe("devbox: hello");
    expect(Number(pid)).toBe(process.pid);
    expect(Math.abs(Number(wall) - Date.now())).toBeLessThan(60_000);
    expect(Number(now)).toBeGreaterThan(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes nothing without it", async () => {
    vi.resetModules();
    const { trace, tracing } = await import("./trace.js");
    expect(tracing).toBe(false);
    expect(() => trace("started")).not.toThrow();
  });
});
