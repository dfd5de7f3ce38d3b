// Child process: pi's own SessionManager.listAll() from @mariozechner/pi-coding-agent.
// pi reads $PI_CODING_AGENT_DIR/sessions (config.js: ENV_AGENT_DIR = `${APP_NAME}_CODING_AGENT_DIR`,
// getSessionsDir() = join(getAgentDir(), "sessions")); the parent sets PI_CODING_AGENT_DIR.
// Prints one JSON line: session count and in-process timings.
const t0 = performance.now();
const { SessionManager } = await import("@mariozechner/pi-coding-agent");
const t1 = performance.now();
const sessions = await SessionManager.listAll();
const t2 = performance.now();
process.stdout.write(
  `${JSON.stringify({ sessions: sessions.length, importMs: t1 - t0, listMs: t2 - t1, sinceStartMs: t2 })}\n`,
);
