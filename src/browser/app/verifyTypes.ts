import type { CommandId } from "../keys/commands.js";
import type { Key } from "../keys/key.js";
import type { TextTerm } from "../../search/fulltext.js";
import type { MouseAction } from "./mouseTypes.js";

/*
 * The verify effect and its answer (holdBack.ts), apart: the effects and actions name them,
 * and the reducer's own files import the effects.
 */

/** An action held back until its session's file confirms its hit: a key, a command, a menu's choice, a double click. */
export type HeldAction =
  | { type: "key"; input: string; key: Key }
  | { type: "command"; command: CommandId }
  | { type: "choose"; command: CommandId }
  | MouseAction;

export interface VerifyEffect {
  type: "fulltext.verify";
  /** The search whose hit it is: a verdict for another one is not applied. */
  key: string;
  path: string;
  terms: readonly TextTerm[];
  includeTools: boolean;
  /** What the session needs of its conversation (bodyNeed); null: nothing (not read). */
  need: readonly boolean[] | null | undefined;
  action: HeldAction;
}

export interface VerifiedAction {
  type: "fulltext.verified";
  key: string;
  path: string;
  /** Whether its file holds the words as the search needs them. */
  holds: boolean;
  /** Set when its file could not be read (why): no verdict, the action not done. */
  unread?: string;
  /** Set when its file is too big to read at once (its bytes): no verdict, the action not done, the search's own check goes on. */
  large?: number;
  action: HeldAction;
}
