import { mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIO } from "./io.js";
import { warnIfOpenInPi } from "./open-in-pi.js";

function io(isTTY: boolean): CliIO & { err: string[] } {
  const err: string[] = [];
  return { err, stdout: () => {}, stderr: (t) => void err.push(t), cwd: "/", env: {}, isTTY };
}

describe("warnIfOpenInPi", () => {
  const file = join(mkdtempSync(join(tmpdir(), "open-in-pi-")), "s.jsonl");
  writeFileSync(file, "{}\n");

  it("warns a person at a terminal about a file changed in the last seconds", () => {
    const tty = io(true);
    warnIfOpenInPi(file, tty);
    expect(tty.err.join("")).toContain("changed in the last 10 seconds: pi may have it open");
  });

  it("says nothing to a script, or about a file left alone for a while", () => {
    const script = io(false);
    warnIfOpenInPi(file, script);
    expect(script.err).toEqual([]);
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const tty = io(true);
    warnIfOpenInPi(file, tty);
    expect(tty.err).toEqual([]);
  });
});
