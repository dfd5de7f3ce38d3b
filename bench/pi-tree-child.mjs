// Child process: pi's own SessionManager.open(file) + getTree() on one session file
// (a copy: open() may rewrite a file it migrates). Prints one JSON line of timings.
const t0 = performance.now();
const { SessionManager } = await import("@mariozechner/pi-coding-agent");
const t1 = performance.now();
const sm = SessionManager.open(process.argv[2]);
const roots = sm.getTree();
const t2 = performance.now();
process.stdout.write(
  `${JSON.stringify({ entries: sm.getEntries().length, roots: roots.length, importMs: t1 - t0, openTreeMs: t2 - t1 })}\n`,
);
