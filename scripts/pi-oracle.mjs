#!/usr/bin/env node
// Fetches the test oracles: pi (@earendil-works/pi-coding-agent, a self-contained bundle that
// cannot be `npm install`ed here because some of its dependencies are not published) in the
// versions the tests ask for (1.6.0, the reference, and 1.5.2), and a Node >= 22.19 to run
// them. All come from the npm registry through `npm pack` and are cached in
// node_modules/.cache/pi-oracle/, so a clean clone (CI) fetches them on its first `npm test`.
//
//   node scripts/pi-oracle.mjs [VERSION]   prints {"node": …, "bundle": …} or {"skip": "why"} (default 1.5.2)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The version asked for when none is named (the first oracle the tests had). */
export const PI_VERSION = "1.5.2";
/** The reference pi: what pi-sessions is checked against first. */
export const PI_REFERENCE = "1.6.0";
/** Every version a test may ask for. */
export const PI_VERSIONS = ["1.5.2", PI_REFERENCE];
export const PI_PACKAGE = "@earendil-works/pi-coding-agent";
export const NODE_VERSION = "22.23.3";
const MIN_NODE = [22, 19];

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const CACHE = join(ROOT, "node_modules", ".cache", "pi-oracle");

function nodeIsNewEnough(version) {
  const [maj, min] = version.replace(/^v/, "").split(".").map(Number);
  return maj > MIN_NODE[0] || (maj === MIN_NODE[0] && min >= MIN_NODE[1]);
}

/** The registry's package holding a Node binary for this platform, as the `node` package names them. */
function nodePackageName() {
  const os = { linux: "linux", darwin: "darwin", win32: "win" }[process.platform];
  const arch = { x64: "x64", arm64: "arm64", ppc64: "ppc64le", s390x: "s390x" }[process.arch];
  return os && arch ? `node-${os}-${arch}` : undefined;
}

/** `npm pack spec` into a fresh folder, unpacked (only `members` if given); moved into place only when complete. */
function packInto(spec, dest, members = []) {
  if (existsSync(dest)) return;
  mkdirSync(CACHE, { recursive: true });
  const tmp = mkdtempSync(join(CACHE, ".tmp-"));
  try {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    execFileSync(npm, ["pack", spec, "--silent", "--pack-destination", tmp], {
      stdio: ["ignore", "ignore", "pipe"],
      shell: process.platform === "win32",
    });
    const tgz = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
    if (!tgz) throw new Error(`npm pack ${spec} gave no tarball`);
    execFileSync("tar", ["xzf", tgz, ...members], { cwd: tmp, stdio: ["ignore", "ignore", "pipe"] });
    rmSync(join(tmp, tgz));
    try {
      renameSync(tmp, dest);
    } catch (err) {
      // Another process finished first: its copy is as good as ours.
      if (!existsSync(dest)) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function findNodeBinary(dir) {
  for (const p of ["package/bin/node", "package/node.exe", "package/bin/node.exe"])
    if (existsSync(join(dir, p))) return join(dir, p);
  return undefined;
}

/**
 * Makes sure the oracle is cached and returns where it is: `{ node, bundle }`, or `{ skip }`
 * with a reason when this platform has no Node 22 binary on the registry. A failed download
 * throws: a test run without its oracle must not pass quietly.
 */
export function ensurePiOracle(version = PI_VERSION) {
  if (!PI_VERSIONS.includes(version)) throw new Error(`no pi oracle ${version} (have ${PI_VERSIONS.join(", ")})`);
  const piDir = join(CACHE, `pi-coding-agent-${version}`);
  packInto(`${PI_PACKAGE}@${version}`, piDir);
  const bundle = join(piDir, "package", "dist", "bundle", "index.js");
  if (!existsSync(bundle)) throw new Error(`${PI_PACKAGE}@${version} has no dist/bundle/index.js`);
  if (nodeIsNewEnough(process.version)) return { node: process.execPath, bundle };
  const pkg = nodePackageName();
  if (!pkg)
    return {
      skip: `pi ${version} needs Node >= ${MIN_NODE.join(".")}; there is no registry Node binary for ${process.platform}-${process.arch}`,
    };
  const nodeDir = join(CACHE, `${pkg}-${NODE_VERSION}`);
  // The binary is all we need of the package (its headers and docs are another 60 MB).
  packInto(`${pkg}@${NODE_VERSION}`, nodeDir, process.platform === "win32" ? [] : ["package/bin/node"]);
  const node = findNodeBinary(nodeDir);
  if (!node) return { skip: `${pkg}@${NODE_VERSION} holds no node binary` };
  return { node, bundle };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = ensurePiOracle(process.argv[2]);
  writeFileSync(1, `${JSON.stringify(result)}\n`);
}
