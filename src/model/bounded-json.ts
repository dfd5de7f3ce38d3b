/*
 * Session values a hostile or broken writer nested absurdly deep (a tool call's arguments
 * 200,000 levels down) parse fine, but every recursive walk over them (JSON.stringify, a
 * formatter) overflows the stack. These helpers walk iteratively and cut what is too deep.
 */

/** Nesting deeper than this is cut when an entry is read back (exports, the reader, show). */
export const MAX_DEPTH = 500;

export const CUT_NOTE = `[cut by pi-sessions: nested deeper than ${MAX_DEPTH} levels]`;

type Obj = Record<string, unknown>;
const isContainer = (v: unknown): v is Obj | unknown[] => typeof v === "object" && v !== null;

/** The deepest nesting of `value` (0 for a scalar), counting no further than `limit + 1`. */
export function depthOf(value: unknown, limit = MAX_DEPTH): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!isContainer(v)) continue;
    if (d + 1 > max) max = d + 1;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (isContainer(child)) stack.push([child, d + 1]);
  }
  return max;
}

/** `value` itself when it nests at most `limit` levels; else a copy whose too-deep parts are CUT_NOTE. */
export function limitDepth<T>(value: T, limit = MAX_DEPTH): T {
  if (depthOf(value, limit) <= limit) return value;
  const root: { v: unknown } = { v: undefined };
  // Copy breadth-first with explicit work items: [source, set into target, depth].
  const work: [unknown, (x: unknown) => void, number][] = [[value, (x) => (root.v = x), 0]];
  while (work.length) {
    const [v, put, d] = work.pop()!;
    if (!isContainer(v)) {
      put(v);
      continue;
    }
    if (d >= limit) {
      put(CUT_NOTE);
      continue;
    }
    if (Array.isArray(v)) {
      const out: unknown[] = new Array(v.length);
      put(out);
      v.forEach((c, i) => work.push([c, (x) => (out[i] = x), d + 1]));
    } else {
      const out: Obj = {};
      put(out);
      // Keys made first, in order: the work stack fills them last to first.
      for (const k of Object.keys(v)) setOwn(out, k, undefined);
      for (const [k, c] of Object.entries(v)) work.push([c, (x) => setOwn(out, k, x), d + 1]);
    }
  }
  return root.v as T;
}

/** Compact JSON of `value` cut to about `max` characters (… where cut), without recursion. */
export function compactJson(value: unknown, max = 300): string {
  let out = "";
  // Tokens to write, last first: values to expand or literal text.
  const todo: ({ text: string } | { value: unknown })[] = [{ value }];
  while (todo.length && out.length <= max) {
    const t = todo.pop()!;
    if ("text" in t) {
      out += t.text;
      continue;
    }
    const v = t.value;
    if (Array.isArray(v)) {
      const parts: ({ text: string } | { value: unknown })[] = [{ text: "[" }];
      v.forEach((c, i) => parts.push(...(i ? [{ text: "," }] : []), { value: c }));
      parts.push({ text: "]" });
      for (let i = parts.length - 1; i >= 0; i--) todo.push(parts[i]);
    } else if (isContainer(v)) {
      const parts: ({ text: string } | { value: unknown })[] = [{ text: "{" }];
      Object.entries(v).forEach(([k, c], i) =>
        parts.push({ text: `${i ? "," : ""}${JSON.stringify(k)}:` }, { value: c }),
      );
      parts.push({ text: "}" });
      for (let i = parts.length - 1; i >= 0; i--) todo.push(parts[i]);
    } else out += v === undefined ? "null" : JSON.stringify(v);
  }
  return out.length > max || todo.length ? `${out.slice(0, max)}…` : out;
}

/**
 * obj[key] = value as JSON.parse does it: a key "__proto__" is an own property, not the
 * object's prototype (a file may hold one; assigning it would drop it, or worse).
 */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}
