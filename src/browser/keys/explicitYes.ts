import type { CommandId } from "./commands.js";
import type { Key } from "./key.js";

/**
 * The confirm key of a question that destroys (y; Y for a permanent delete's second
 * question): never Enter, nor a Ctrl or Alt chord, whatever the key map says, so a
 * reflexive Enter after the key that asked cancels.
 */
export function explicitYes(
  c: CommandId | null | undefined,
  key: Key,
  yes: "confirm.yes" | "confirm.permanent",
): boolean {
  return c === yes && !key.return && !key.ctrl && !key.meta;
}
