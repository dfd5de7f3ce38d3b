import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../../test/helpers/tmp-store.js";
import { piCommandProblem } from "./spawn-pi.js";

afterAll(cleanupTmp);

describe("piCommandProblem", () => {
  const dir = makeTmpDir();
  const exe = join(dir, "mypi");
  writeFileSync(exe, "#!/bin/sh\n");
  chmodSync(exe, 0o755);
  const plain = join(dir, "notexec");
  writeFileSync(plain, "");

  it("finds a command on PATH", () => {
    expect(piCommandProblem("mypi", { PATH: `/nowhere:${dir}` }, "/", "linux")).toBeUndefined();
    expect(piCommandProblem("mypi --flag", { PATH: dir }, "/", "linux")).toBeUndefined();
  });
  it("says when it is not on PATH, and how to point elsewhere", () => {
    expect(piCommandProblem("pi", { PATH: dir }, "/", "linux")).toBe(
      `cannot resume: 'pi' is not on PATH; set --pi-command, $PI_SESSIONS_PI or "piCommand" in the config`,
    );
  });
  it("checks a path as given: present and executable", () => {
    expect(piCommandProblem(exe, {}, "/", "linux")).toBeUndefined();
    expect(piCommandProblem("/nonexistent/pi", {}, "/", "linux")).toMatch(
      /^cannot resume: \/nonexistent\/pi is not an executable file/,
    );
    expect(piCommandProblem(plain, {}, "/", "linux")).toMatch(/is not an executable file/);
    expect(piCommandProblem("./mypi", {}, dir, "linux")).toBeUndefined();
  });
  it("refuses a script whose interpreter cannot be found, before anything is written (QA)", () => {
    const bad = join(dir, "badpi");
    writeFileSync(bad, "#!/nonexistent/interp\necho hi\n");
    chmodSync(bad, 0o755);
    expect(piCommandProblem(bad, {}, "/", "linux")).toMatch(
      /^cannot resume: .*badpi is a script for \/nonexistent\/interp, which cannot be found/,
    );
    const viaEnv = join(dir, "envpi");
    writeFileSync(viaEnv, "#!/usr/bin/env -S no-such-runtime --flag\n");
    chmodSync(viaEnv, 0o755);
    expect(piCommandProblem(viaEnv, { PATH: dir }, "/", "linux")).toMatch(/a script for no-such-runtime/);
    const good = join(dir, "goodpi");
    writeFileSync(good, "#!/usr/bin/env mypi\n");
    chmodSync(good, 0o755);
    expect(piCommandProblem(good, { PATH: dir }, "/", "linux")).toBeUndefined();
  });
});
