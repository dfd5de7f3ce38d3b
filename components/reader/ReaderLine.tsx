import { Text } from "ink";
import type { BlockKind } from "../../src/transcript/blocks.js";
import type { DisplayLine } from "../../src/transcript/layout.js";
import { padToWidth } from "../../src/text/sanitize.js";
import { theme, type ToneName } from "../theme/theme.js";

/** A part of the line a search hit covers; `current` is the match n / N is on. */
export interface LineHit {
  start: number;
  end: number;
  current: boolean;
}

interface Props {
  line: DisplayLine;
  kind: BlockKind;
  width: number;
  cursor: boolean;
  hits?: readonly LineHit[];
}

function toneOf(line: DisplayLine, kind: BlockKind): ToneName | undefined {
  switch (line.style) {
    case "header":
      return kind === "user" ? "user" : kind === "assistant" ? "assistant" : "named";
    case "tool":
      return "tool";
    case "error":
      return "error";
    case "thinking":
    case "quote":
    case "more":
      return "muted";
    case "code":
      return "accent";
    case "heading":
      return "title";
    case "rule":
      return "border";
    default:
      return undefined;
  }
}

/** One display line of the transcript: the cursor marker, the text in its tone, search hits marked (inverse). */
export function ReaderLine({ line, kind, width, cursor, hits }: Props) {
  const tone = toneOf(line, kind);
  const marker = cursor ? <Text {...theme.selected}>{"❯"}</Text> : <Text> </Text>;
  const room = Math.max(0, width - 2);
  if (!hits || hits.length === 0) {
    return (
      <Text wrap="truncate-end">
        {marker} <Text {...(tone ? theme[tone] : {})}>{padToWidth(line.text, room)}</Text>
      </Text>
    );
  }
  // Hits in order, cut out of the line: text, hit, text, …
  const parts: { text: string; hit?: LineHit }[] = [];
  let at = 0;
  for (const h of [...hits].sort((a, b) => a.start - b.start)) {
    if (h.start > at) parts.push({ text: line.text.slice(at, h.start) });
    parts.push({ text: line.text.slice(Math.max(at, h.start), h.end), hit: h });
    at = Math.max(at, h.end);
  }
  parts.push({ text: line.text.slice(at) });
  return (
    <Text wrap="truncate-end">
      {marker}{" "}
      {parts.map((p, i) =>
        p.hit ? (
          <Text key={i} inverse bold={p.hit.current} {...(p.hit.current ? theme.warning : {})}>
            {p.text}
          </Text>
        ) : (
          <Text key={i} {...(tone ? theme[tone] : {})}>
            {p.text}
          </Text>
        ),
      )}
    </Text>
  );
}
