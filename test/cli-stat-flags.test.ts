// The built stat-numbers.js in a real Node with the flags under which process.binding warns,
// throws or is refused: not a word on stderr, and statSync rather than the binding.
// `npm test` builds dist/ before vitest runs.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir, REPO } from "./helpers/tmp-store.js";

afterAll(cleanupTmp);

const MODULE = pathToFileURL(join(REPO, "dist", "src", "store", "stat-numbers.js")).href;

function run(flags: string[], env: NodeJS.ProcessEnv = {}) {
  const dir = makeTmpDir();
  const file = join(dir, "a.jsonl");
  writeFileSync(file, "x".repeat(100));
  const script = join(dir, "probe.mjs");
  writeFileSync(
    script,
    `import { statSync } from "node:fs";
import { statNumbers, statNumbersFast } from ${JSON.stringify(MODULE)};
const out = new Float64Array(4);
const file = statNumbers(${JSON.stringify(file)}, out, 0);
const st = statSync(${JSON.stringify(file)});
console.log(JSON.stringify({ fast: statNumbersFast(), file, same: [...out].join() === [st.ino, st.size, st.mtimeMs, st.ctimeMs].join() }));
`,
  );
  const r = spawnSync(process.execPath, [...flags, script], {
    cwd: REPO,
    encoding: "utf8",
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("stat-numbers in a Node run with flags that touch process.binding", () => {
  it.each([
    [["--pending-deprecation", "--throw-deprecation"]],
    [["--pending-deprecation", "--trace-deprecation"]],
    [["--trace-deprecation"]],
    [["--permission", "--allow-fs-read=*"]],
  ])("%j: nothing on stderr, exit 0, statSync's numbers, the binding not used", (flags) => {
    const r = run(flags);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ fast: false, file: true, same: true });
  });

  it.each(["--throw-deprecation", "--pending-deprecation --throw-deprecation", "--trace-deprecation"])(
    "NODE_OPTIONS=%s: likewise",
    (options) => {
      const r = run([], { NODE_OPTIONS: options });
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ fast: false, file: true, same: true });
    },
  );

  it("uses the binding with none of them (the probe above tells the two apart)", () => {
    const r = run([]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const major = Number(process.versions.node.split(".")[0]);
    expect(JSON.parse(r.stdout)).toEqual({ fast: major === 22 || major === 24, file: true, same: true });
  });
});
