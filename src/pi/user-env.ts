import { basename, delimiter } from "node:path";

/**
 * The environment the user's shell gave us, as pi should get it. `npm start`, `npm run` and
 * `npx` put their own folders in front of PATH (every `node_modules/.bin` from the package up
 * to the root, then npm's `node-gyp-bin`) and add `npm_*` variables: under them a bare `pi`
 * would be the oracle devDependency's old pi, not the one the user's shell starts. Outside
 * npm the environment is returned as it is.
 */
export function userEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (!ranByNpm(env)) return env;
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (/^npm_/i.test(k) || k === "INIT_CWD") continue;
    out[k] = /^path$/i.test(k) && v !== undefined ? userPath(v) : v;
  }
  return out;
}

/** npm's run-script sets these two for every script (nested runs too); a shell does not. */
function ranByNpm(env: NodeJS.ProcessEnv): boolean {
  return env.npm_lifecycle_event !== undefined && env.npm_package_json !== undefined;
}

/** PATH without the entries npm put in front of it (a nested `npm run` puts its own before those). */
export function userPath(path: string): string {
  const dirs = path.split(delimiter);
  let first = 0;
  while (first < dirs.length && npmInjected(dirs[first])) first++;
  return dirs.slice(first).join(delimiter);
}

function npmInjected(dir: string): boolean {
  const d = dir.replace(/[\\/]+$/, "");
  return /[\\/]node_modules[\\/]\.bin$/.test(d) || basename(d) === "node-gyp-bin";
}
