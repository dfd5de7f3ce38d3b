import fc from "fast-check";

/*
 * Random sessions' searched fields and queries for the ranking's property tests: short
 * texts over a few characters that fold, change case, separate words or fields, so that
 * holds, near misses and scattered letters all come up.
 */

/** A text of up to `max` characters from `chars`. */
export const arbText = (chars: string, max: number) =>
  fc.array(fc.constantFrom(...chars.split("")), { maxLength: max }).map((a) => a.join(""));

/** A session's searched fields (cwd as given by `cwd`). */
export const arbFields = (text: fc.Arbitrary<string>, cwd: fc.Arbitrary<string> = text) =>
  fc.record({ name: fc.option(text, { nil: undefined }), firstMessage: text, cwd, id: text });

/** A query of one to three words, phrases or exact words (and `extra` kinds of term). */
export const arbQuery = (text: fc.Arbitrary<string>, extra: fc.Arbitrary<string>[] = []) =>
  fc
    .array(
      fc.oneof(
        text,
        text.map((t) => `"${t}"`),
        text.map((t) => `'${t}`),
        ...extra,
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((ts) => ts.join(" "));
