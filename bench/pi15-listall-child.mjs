// Child process: pi 1.5.2's own SessionManager.listAll(), from its bundle (scripts/pi-oracle.mjs).
// pi reads $PI_CODING_AGENT_DIR/sessions; the parent sets it. Prints the session count.
import { pathToFileURL } from "node:url";

const pi = await import(pathToFileURL(process.argv[2]).href);
const sessions = await pi.SessionManager.listAll();
process.stdout.write(`${JSON.stringify({ sessions: sessions.length })}\n`);
