import type { BodyHit } from "../../src/search/fulltext.js";

/** A conversation's hit holding every one of `terms` text terms, with this snippet. */
export const bodyHit = (snippet: string, terms = 1): BodyHit => ({ snippet, held: Array<boolean>(terms).fill(true) });
