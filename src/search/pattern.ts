import { RE2JS } from "re2js";

/*
 * A user's `re:` pattern, run by RE2's engine (re2js, a pure-JS port): its time is linear
 * in the text whatever the pattern, so `(a+)+$` over forty `a`s and a `b` cannot freeze a
 * search or the browser the way a backtracking RegExp does. The syntax is RE2's
 * (https://github.com/google/re2/wiki/Syntax): no backreferences, no lookaround. Matching
 * is case-insensitive, as `re:` has always been.
 */

/** Where a pattern matched: [at, at + len) in UTF-16 units of the text given. */
export interface PatternHit {
  at: number;
  len: number;
}

export interface UserPattern {
  /** The pattern as the user wrote it. */
  readonly source: string;
  /** Whether it matches anywhere in `text`. */
  test(text: string): boolean;
  /** Its first match at or after `from`, or null. */
  find(text: string, from?: number): PatternHit | null;
}

/**
 * Why a pattern was refused, in RE2's words without its "error parsing regexp: " opening;
 * what a JavaScript or Perl pattern has and RE2 has not is named as such (RE2 calls a
 * lookbehind "an invalid named capture").
 */
function reason(e: unknown): string {
  const message = (e instanceof Error ? e.message : String(e)).replace(/^error parsing regexp: /, "");
  const look = /`(\(\?<?[=!])/.exec(message);
  if (look) return `lookahead and lookbehind are not supported: \`${look[1]}\``;
  const backref = /^invalid escape sequence: `(\\[1-9])`/.exec(message);
  if (backref) return `backreferences are not supported: \`${backref[1]}\``;
  return message;
}

/**
 * The pattern compiled, or throws an Error whose message says why (e.g. "missing closing
 * ): `(a`"): the caller shows it.
 */
export function compilePattern(source: string): UserPattern {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  } catch (e) {
    throw new Error(reason(e), { cause: e });
  }
  return {
    source,
    // test() runs the DFA and asks for no groups: the fast path (a matcher tracks them).
    test: (text) => re.test(text),
    find(text, from = 0) {
      // Most texts do not match: ruled out by the DFA before a matcher is made.
      if (from === 0 ? !re.test(text) : from > text.length) return null;
      const m = re.matcher(text);
      if (!m.find(from)) return null;
      const at = m.start();
      return { at, len: m.end() - at };
    },
  };
}
