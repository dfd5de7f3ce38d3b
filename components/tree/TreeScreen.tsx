import { Box, Text } from "ink";
import { type Dispatch, type ReactNode, useCallback, useMemo } from "react";
import { displayWidth, sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";
import { footerText, hintsFor } from "../footer/hints.js";
import { StatusLine } from "../footer/StatusLine.js";
import type { Mode } from "../../src/browser/keys/commands.js";
import type { Keymap } from "../../src/browser/keys/keymap.js";
import type { Layout } from "../layout/layout.js";
import { ScreenFrame } from "../layout/ScreenFrame.js";
import type { AppAction } from "../../src/browser/app/appReducer.js";
import { theme } from "../theme/theme.js";
import type { StatusMessage } from "../../src/browser/lifecycle/lifecycleTypes.js";
import { EntryPreview } from "./EntryPreview.js";
import { treeHeaderText } from "./treeHeaderText.js";
import { TreePane } from "./TreePane.js";
import { currentId, type TreeState } from "../../src/browser/tree/treeState.js";
import { EntryCache, type EntryReader } from "./useEntryPreview.js";

interface Props {
  tree: TreeState;
  mode: Mode;
  keymap: Keymap;
  print: boolean;
  layout: Layout;
  /** Takes the body's place (the help). */
  overlay?: ReactNode;
  /** A dialog drawn over the tree (DialogHost's: a rename, write anyway?, a label). */
  modal?: ReactNode;
  /** The app's status message (copy): shown when the tree has none of its own. */
  status?: StatusMessage;
  dispatch: Dispatch<AppAction>;
  /** For tests: how full entries are read. */
  readEntry?: EntryReader;
  cache?: EntryCache;
  /** Told the tree's first shown row (the mouse's hit test). */
  windowTop?: { current: number };
}

function InputLine({ value, cursor, width }: { value: string; cursor: number; width: number }) {
  const chars = Array.from(value);
  const room = Math.max(4, width - 12);
  const before = chars.slice(0, cursor).join("");
  const shown = displayWidth(before) > room ? "…" + truncateToWidth(before, room).slice(-room) : before;
  return (
    <Text wrap="truncate-end">
      <Text {...theme.key}>search: </Text>
      <Text>{shown}</Text>
      <Text inverse>{chars[cursor] ?? " "}</Text>
      <Text>{chars.slice(cursor + 1).join("")}</Text>
    </Text>
  );
}

/** The branch tree of one session: header, tree pane + entry preview (or a dialog), footer. */
export function TreeScreen({
  tree: t,
  mode,
  keymap,
  print,
  layout,
  overlay,
  modal,
  status,
  dispatch,
  readEntry,
  cache,
  windowTop,
}: Props) {
  const entries = useMemo(() => cache ?? new EntryCache(), [cache]);
  const onMaxTop = useCallback((max: number) => dispatch({ type: "tree.previewMax", max }), [dispatch]);
  const { list, preview: pv } = layout;
  const width = layout.columns;
  const id = currentId(t);
  const node = id !== undefined ? t.index?.byId.get(id) : undefined;

  // Help takes the body; a dialog (DialogHost's, the tree's own included) is drawn over the tree, centred.
  const dialog: ReactNode = modal;
  let body: ReactNode;
  if (overlay) body = overlay;
  else if (!t.view || !t.index) {
    body = (
      <Box height={layout.body} width={width} flexShrink={0}>
        <Text {...(t.status === "error" ? theme.error : theme.muted)} wrap="truncate-end">
          {t.status === "error" ? `  cannot read the session: ${sanitizeLine(t.error ?? "")}` : "  loading the tree…"}
        </Text>
        {dialog}
      </Box>
    );
  } else {
    body = (
      <Box flexDirection={pv.position === "right" ? "row" : "column"} height={layout.body} flexShrink={0}>
        <TreePane
          view={t.view}
          index={t.index}
          calls={t.calls}
          folded={t.folded}
          matches={t.matchSet}
          cursor={t.cursor}
          width={list.width}
          height={list.height}
          edits={t.edits}
          original={t.original}
          labelTimes={!!t.labelTimes}
          windowTop={windowTop}
        />
        <EntryPreview
          path={t.path}
          node={node}
          label={id !== undefined ? t.index.labels.get(id) : undefined}
          edit={id !== undefined ? t.edits.get(id) : undefined}
          original={t.original}
          calls={t.calls}
          cache={entries}
          read={readEntry}
          top={t.previewTop}
          position={pv.position}
          width={pv.width}
          height={pv.height}
          inner={pv.inner}
          onMaxTop={onMaxTop}
        />
        {dialog}
      </Box>
    );
  }

  let footer: ReactNode;
  if (t.input?.kind === "search")
    footer = <InputLine value={t.input.text.value} cursor={t.input.text.cursor} width={width} />;
  else
    footer = (
      <Text wrap="truncate-end" {...theme.muted}>
        {footerText(hintsFor(mode, print), keymap, width, mode)}
      </Text>
    );
  const message = t.message && mode === "tree" && !overlay && !modal ? t.message : undefined;

  return (
    <ScreenFrame
      width={width}
      height={layout.height}
      header={
        <Text wrap="truncate-end" {...theme.title}>
          {treeHeaderText(t, width)}
        </Text>
      }
      status={
        <StatusLine
          status={
            message
              ? { text: message.text, tone: message.error ? "error" : message.negative ? "note" : "info" }
              : overlay || modal
                ? undefined
                : status
          }
          width={width}
        />
      }
      footer={footer}
    >
      {body}
    </ScreenFrame>
  );
}
