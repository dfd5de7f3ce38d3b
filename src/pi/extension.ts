// pi-sessions as a pi extension: `pi install <this package>` or `pi -e <path to this file>`.
// pi is a peer (@earendil-works/pi-coding-agent, pi 1.6.0): only types are imported, so nothing of
// pi is bundled or loaded twice. They come from the oracle devDependency (pi 0.73.1, whose
// ExtensionAPI has the same registerCommand), the one pi the project installs.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { runSessionsCommand, type SessionsContext } from "./sessions-command.js";

export default function piSessions(pi: ExtensionAPI): void {
  pi.registerCommand("sessions", {
    description: "Browse, search, resume, fork and tidy sessions (pi-sessions); an argument pre-fills the search",
    handler: async (args, ctx) => {
      await runSessionsCommand(args ?? "", ctx as unknown as SessionsContext);
    },
  });
}
