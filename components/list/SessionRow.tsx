import { Box, Text } from "ink";
import { memo, type ReactNode } from "react";
import { matchRanges } from "../../src/search/match-ranges.js";
import type { Query } from "../../src/search/query.js";
import type { ListRow } from "../../src/browser/list/derive.js";
import { theme } from "../theme/theme.js";
import { Highlighted } from "./Highlighted.js";
import { type AgeOf, formatRowParts, rowTone } from "./rowFormat.js";
import { formatSnippetLine } from "./snippetLine.js";

interface Props {
  /** Behind a dialog: the row is drawn dimmed, selection included. */
  dimmed?: boolean;
  row: ListRow;
  width: number;
  selected: boolean;
  showCwd: boolean;
  /** The last column shows the file path (pi's Ctrl+P). */
  showPath?: boolean;
  now: number;
  marked?: boolean;
  open?: boolean;
  /** The active search: what it matched is highlighted in the title, folder and snippet. */
  query?: Query;
  ageOf?: AgeOf;
}

/**
 * Props are equal when every prop is, comparing `row` field by field: rows are rebuilt
 * on every scan batch and re-sort, but a row whose session did not change needs no
 * new frame.
 */
function sameProps(a: Props, b: Props): boolean {
  const ka = Object.keys(a) as (keyof Props)[];
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (k !== "row" && a[k] !== b[k]) return false;
  if (a.row === b.row) return true;
  const ra = a.row as unknown as Record<string, unknown>;
  const rb = b.row as unknown as Record<string, unknown>;
  const fa = Object.keys(ra);
  if (fa.length !== Object.keys(rb).length) return false;
  return fa.every((f) => ra[f] === rb[f]);
}

/** The row's line, with the search's matches highlighted in the title and folder columns. */
function rowLine({ row, width, selected, showCwd, showPath, now, marked, open, query, ageOf }: Props): ReactNode {
  const p = formatRowParts(row, { width, selected, showCwd, showPath, now, marked, open, ageOf });
  const q = query && query.terms.length > 0 ? query : undefined;
  // Without a search the row stays one string: one text node for Ink to lay out.
  if (!q) return p.lead + p.title + p.right + p.cwd;
  return (
    <>
      {p.lead}
      <Highlighted text={p.title} ranges={matchRanges(q, p.title, p.titleIsName ? "name" : "text")} />
      {p.right}
      {p.cwd && <Highlighted text={p.cwd} ranges={matchRanges(q, p.cwd, "cwd")} />}
    </>
  );
}

/** One pre-formatted line; memoised so a cursor move re-renders two rows, not the page. */
export const SessionRow = memo(function SessionRow(props: Props) {
  const { row, width, selected, query } = props;
  const tone = props.dimmed ? "muted" : rowTone(row, selected);
  const line = (
    <Text wrap="truncate-end" {...(tone ? theme[tone] : {})}>
      {rowLine(props)}
    </Text>
  );
  if (row.snippet) {
    // A full-text hit: the snippet of the match on a second line.
    const snippet = formatSnippetLine(row, width);
    return (
      <Box flexShrink={0} width={width} height={2} flexDirection="column">
        {line}
        <Text wrap="truncate-end" {...theme.muted}>
          {query && query.terms.length > 0 ? (
            <Highlighted text={snippet} ranges={matchRanges(query, snippet, "text")} />
          ) : (
            snippet
          )}
        </Text>
      </Box>
    );
  }
  return (
    <Box flexShrink={0} width={width}>
      {line}
    </Box>
  );
}, sameProps);
