import { Text } from "ink";
import { type Range, splitByRanges } from "../../src/search/match-ranges.js";
import { theme } from "../theme/theme.js";

/** Inline text with the matched ranges drawn in the match style (inside the parent Text's tone). */
export function Highlighted({ text, ranges }: { text: string; ranges: readonly Range[] }) {
  if (ranges.length === 0) return <>{text}</>;
  return (
    <>
      {splitByRanges(text, ranges).map((p, i) =>
        p.hit ? (
          <Text key={i} {...theme.match}>
            {p.text}
          </Text>
        ) : (
          p.text
        ),
      )}
    </>
  );
}
