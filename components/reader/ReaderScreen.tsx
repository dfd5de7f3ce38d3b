import { Box, Text } from "ink";
import { type Dispatch, type ReactNode, useEffect } from "react";
import { sanitizeLine } from "../../src/text/sanitize.js";
import { footerText, hintsFor } from "../footer/hints.js";
import { StatusLine } from "../footer/StatusLine.js";
import type { Mode } from "../../src/browser/keys/commands.js";
import type { Keymap } from "../../src/browser/keys/keymap.js";
import { ScreenFrame } from "../layout/ScreenFrame.js";
import { PaneFrame } from "../layout/PaneFrame.js";
import type { AppAction } from "../../src/browser/app/appReducer.js";
import type { StatusMessage } from "../../src/browser/lifecycle/lifecycleTypes.js";
import { theme } from "../theme/theme.js";
import { type LineHit, ReaderLine } from "./ReaderLine.js";
import { readerHeaderText, readerProgress } from "./readerHeaderText.js";
import { ReaderSearchLine } from "./ReaderSearchLine.js";
import type { ReaderState } from "../../src/browser/reader/readerState.js";

interface Props {
  reader: ReaderState;
  mode: Mode;
  keymap: Keymap;
  print: boolean;
  columns: number;
  rows: number;
  status?: StatusMessage;
  /** Help, in place of the transcript. */
  overlay?: ReactNode;
  /** A dialog (export) drawn over the transcript. */
  modal?: ReactNode;
  dispatch: Dispatch<AppAction>;
}

/** The transcript's size for a screen: the pane's inside less the cursor gutter ("❯ "). */
export function readerSize(columns: number, rows: number): { width: number; height: number } {
  return { width: Math.max(1, columns - 4), height: Math.max(1, rows - 3 - 2) };
}

/** Search hits on the lines of the window, by "block:line". */
function hitsByLine(r: ReaderState, first: number, last: number): Map<string, LineHit[]> {
  const out = new Map<string, LineHit[]>();
  r.matches.forEach((m, i) => {
    if (m.block < first || m.block > last) return;
    for (const p of m.parts) {
      const k = `${m.block}:${p.line}`;
      const list = out.get(k) ?? [];
      list.push({ start: p.start, end: p.end, current: i === r.match });
      out.set(k, list);
    }
  });
  return out;
}

/** The transcript reader: header, the framed transcript window (only its visible lines are laid out), status, key hints. */
export function ReaderScreen({
  reader: r,
  mode,
  keymap,
  print,
  columns,
  rows,
  status,
  overlay,
  modal,
  dispatch,
}: Props) {
  const size = readerSize(columns, rows);
  useEffect(() => {
    if (size.width !== r.width || size.height !== r.height)
      dispatch({ type: "reader.resize", width: size.width, height: size.height });
  }, [size.width, size.height, r.width, r.height, dispatch]);

  const bodyH = Math.max(0, rows - 3);
  const t = r.transcript;
  let body: ReactNode;
  if (overlay) body = overlay;
  else if (r.status !== "ready" || !t) {
    body = (
      <Box height={bodyH} width={columns} flexShrink={0}>
        <Text {...(r.status === "error" ? theme.error : theme.muted)} wrap="truncate-end">
          {r.status === "error"
            ? `  cannot read the session: ${sanitizeLine(r.error ?? "")}`
            : "  loading the conversation…"}
        </Text>
      </Box>
    );
  } else {
    const lines = t.window(r.top, r.height);
    const hits =
      r.matches.length && lines.length ? hitsByLine(r, lines[0].block, lines[lines.length - 1].block) : undefined;
    // Each line's index in its block: the window runs on from the top position.
    const at = lines.map((l, i) => (i === 0 || l.block !== lines[i - 1].block ? (i === 0 ? r.top.line : 0) : -1));
    for (let i = 1; i < at.length; i++) if (at[i] === -1) at[i] = at[i - 1] + 1;
    const inner = columns - 2;
    body = (
      <PaneFrame
        title={r.original ? "Transcript · as written" : "Transcript"}
        info={readerProgress(r)}
        focused
        width={columns}
        height={bodyH}
      >
        <Box flexDirection="column" width={inner} height={Math.max(0, bodyH - 2)} flexShrink={0}>
          {lines.length === 0 ? (
            <Text {...theme.muted}>{"  (nothing to show: no messages on this branch)"}</Text>
          ) : (
            lines.map((l, i) => (
              <ReaderLine
                key={i}
                line={l}
                kind={t.blocks.kind(l.block)}
                width={inner}
                cursor={l.block === r.cursor.block && at[i] === r.cursor.line}
                hits={hits?.get(`${l.block}:${at[i]}`)}
              />
            ))
          )}
        </Box>
      </PaneFrame>
    );
  }
  return (
    <ScreenFrame
      width={columns}
      height={rows}
      header={
        <Text wrap="truncate-end" {...theme.title}>
          {readerHeaderText(r, columns)}
        </Text>
      }
      status={<StatusLine status={overlay || modal ? undefined : status} width={columns} />}
      footer={
        r.input ? (
          <ReaderSearchLine input={r.input} width={columns} />
        ) : (
          <Text wrap="truncate-end" {...theme.muted}>
            {footerText(hintsFor(mode, print), keymap, columns, mode)}
          </Text>
        )
      }
    >
      {modal ? (
        // The dialog is placed absolutely inside the body's box, over the transcript.
        <Box height={bodyH} width={columns} flexShrink={0}>
          {body}
          {modal}
        </Box>
      ) : (
        body
      )}
    </ScreenFrame>
  );
}
