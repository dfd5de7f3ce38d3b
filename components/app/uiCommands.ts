import type { UiCommands } from "../../src/cli/main.js";

/** The CLI's command that needs UI code, loaded on demand: only the browser pays for Ink and React. */
export const UI_COMMANDS: UiCommands = {
  browse: async (args, io) => (await import("./browseCommand.js")).browseCommand(args, io),
};
