// Child process: time until the first N rows (header probes) are known.
// argv: <dist scan-store.js URL> <sessions dir> [N=50]
// Prints one JSON line: { sinceStartMs, sinceScanMs, probes }.
//   sinceStartMs: performance.now() (ms since performance.timeOrigin = process start)
//   sinceScanMs : since just before scanStore() was called
const [scanStoreUrl, dir, nArg] = process.argv.slice(2);
const N = Number(nArg ?? 50);
const { scanStore } = await import(scanStoreUrl);
let seen = 0;
let done = false;
const report = (extra) => {
  if (done) return;
  done = true;
  process.stdout.write(`${JSON.stringify({ probes: seen, ...extra })}\n`);
  process.exit(0);
};
const tScan = performance.now();
scanStore(dir, {
  onProbes(batch) {
    seen += batch.length;
    if (seen >= N) {
      const now = performance.now();
      report({ sinceStartMs: now, sinceScanMs: now - tScan });
    }
  },
})
  .then(() => report({ sinceStartMs: NaN, sinceScanMs: NaN, error: `scan ended with only ${seen} probes` }))
  .catch((err) => report({ sinceStartMs: NaN, sinceScanMs: NaN, error: String(err) }));
