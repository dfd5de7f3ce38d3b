import { closeSync, lstatSync, readdirSync, readSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { checkFolder, openOwnFile } from "./cache-folder.js";

/*
 * The files of an index's answers folder (src/cli/common/answer-cache.ts writes and reads
 * them): what their names and first bytes are, so that nothing else is ever taken for one,
 * and nothing else is ever deleted with them.
 */

/** The folder beside the index where whole answers are kept. */
export function answersDirOf(indexPath: string): string {
  return `${indexPath}-answers`;
}

/** How every answer file of this format starts (its header line is JSON, this its first key). */
export const ANSWER_MAGIC = '{"pi-sessions answer":2,';
/** How an answer file of the format before started. */
const OLD_MAGIC = '{"fingerprint":';

/** An answer's name: a build's 16 hex digits, a dash, a key's 32. */
const ANSWER_NAME = /^[0-9a-f]{16}-[0-9a-f]{32}$/;
/** A temporary file an answer is written to before it is renamed into place. */
const TEMP_NAME = /^\.tmp-[0-9]+-[0-9a-z]+$/;

export function isAnswerName(name: string): boolean {
  return ANSWER_NAME.test(name);
}

export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/**
 * Whether the file at `path` is an answer file of ours by its first bytes: a regular file of
 * this user (never through a link) starting with an answer header of this format or the one
 * before; a temporary file also when empty or cut short within its header's first bytes.
 */
export function hasAnswerHeader(path: string, temp: boolean): boolean {
  const fd = openOwnFile(path);
  if (fd === undefined) return false;
  try {
    const head = Buffer.alloc(ANSWER_MAGIC.length);
    const n = readSync(fd, head, 0, head.length, 0);
    const text = head.toString("latin1", 0, n);
    if (text.startsWith(OLD_MAGIC) || text === ANSWER_MAGIC) return true;
    return temp && ANSWER_MAGIC.startsWith(text);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * Deletes the answer file at `path` if it is one of ours (its name and its header), never
 * anything else. `minAgeMs`: a temporary file younger than that may be another process's
 * answer being written: left alone.
 */
export function removeAnswerFile(dir: string, name: string, minAgeMs = 0): void {
  const temp = isTempName(name);
  if (!temp && !isAnswerName(name)) return;
  const path = join(dir, name);
  try {
    if (temp && minAgeMs > 0 && Date.now() - lstatSync(path).mtimeMs < minAgeMs) return;
    if (hasAnswerHeader(path, temp)) unlinkSync(path);
  } catch {
    // Gone already.
  }
}

/**
 * Deletes the answers folder of an index: its answer files, then the folder if nothing
 * else is in it. A folder that is not ours (a link, another user's) is left as it is, and so
 * is anything in it that is not an answer of ours.
 */
export function removeAnswers(dir: string): void {
  if (checkFolder(dir) !== undefined) return;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) removeAnswerFile(dir, name);
  try {
    rmdirSync(dir);
  } catch {
    // Not empty (something not ours is in it), or gone.
  }
}
