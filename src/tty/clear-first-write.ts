import { CLEAR_SCREEN, SYNC_START } from "./terminal.js";

/**
 * `stream` for Ink, with the screen cleared by its first write: Ink's first frame writes its
 * lines over what is on the screen without erasing their ends, so where a line drawn before
 * Ink (the first screen) was longer, its tail stayed (a header still saying "scanning…"
 * beside Ink's that says the list is complete). Cleared in the same write as the frame, and
 * inside its synchronized update when it has one: the rows drawn before stay until the frame
 * replaces them, with no blank screen between.
 */
export function clearingFirstWrite<S extends NodeJS.WriteStream>(stream: S): S {
  let first = true;
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (first && (typeof chunk === "string" || chunk instanceof Uint8Array)) {
      first = false;
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      chunk = text.startsWith(SYNC_START)
        ? SYNC_START + CLEAR_SCREEN + text.slice(SYNC_START.length)
        : CLEAR_SCREEN + text;
    }
    return (stream.write as (...a: unknown[]) => boolean)(chunk, ...rest);
  };
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === "write") return write;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
