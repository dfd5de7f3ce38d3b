import { Box, useApp, useInput, usePaste, useStdin } from "ink";
import { SkippedView } from "../skipped/SkippedView.js";
import { keysLabel } from "../../src/browser/keys/keymap.js";
import { disabledReason } from "../../src/browser/app/disabledReason.js";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { ReaderScreen } from "../reader/ReaderScreen.js";
import { realLoadIndex } from "../../src/browser/reader/readerRunner.js";
import { realTakeoutIO } from "../../src/browser/copy-export/copyExportRunner.js";
import { useMouse } from "../mouse/useMouse.js";
import { DialogHost } from "../dialogs/DialogHost.js";
import { dialogUp } from "../dialogs/dialogUp.js";
import { Footer } from "../footer/Footer.js";
import { ScreenFrame } from "../layout/ScreenFrame.js";
import { Header } from "../header/Header.js";
import { searchFiles } from "../../src/search/fulltext.js";
import { realLifecycle } from "../../src/browser/lifecycle/lifecycleEffects.js";
import { realTrashIO } from "../../src/browser/trash/trashRunner.js";
import { useUpdateLoop } from "../hooks/useUpdateLoop.js";
import { useStoreWatch } from "../hooks/useStoreWatch.js";
import { StatusLine } from "../footer/StatusLine.js";
import { useFullTextSearch } from "../hooks/useFullTextSearch.js";
import { useNow } from "../hooks/useNow.js";
import { PreviewCache, usePreview } from "../hooks/usePreview.js";
import { useSettled } from "../hooks/useSettled.js";
import { useRowsDue } from "../hooks/useRowsDue.js";
import { useStoreScan } from "../hooks/useStoreScan.js";
import type { CommandId } from "../../src/browser/keys/commands.js";
import { sessionTitle } from "../../src/model/session-title.js";
import { computeLayout } from "../layout/layout.js";
import { useTerminalSize } from "../layout/useTerminalSize.js";
import { ageOfSort, listFrameText } from "../list/rowFormat.js";
import { SessionList } from "../list/SessionList.js";
import { PreviewPane } from "../preview/PreviewPane.js";
import { SearchBar } from "../search/SearchBar.js";
import {
  type AppState,
  modeOf,
  previewOffset,
  selectedSession,
  topLayer,
  update,
} from "../../src/browser/app/appReducer.js";
import type { Effect, Outcome } from "../../src/browser/app/effects.js";
import { fullTextNote } from "../../src/browser/list/fullText.js";
import { TooSmall } from "../layout/TooSmall.js";
import { TreeScreen } from "../tree/TreeScreen.js";
import { UsageScreen } from "../usage/UsageScreen.js";
import { TrashScreen } from "../trash/TrashScreen.js";
import { realTreeIO } from "../../src/browser/tree/treeRunner.js";
import type { BrowserDeps } from "./deps.js";
import { createEffectRunner, type EffectIO } from "../../src/browser/app/effectRunner.js";
import { searchBarShown, settledFirst } from "./settledFirst.js";
import { trace, tracing } from "../../src/launcher/trace.js";

export interface AppProps {
  storeDir: string;
  storeLabel: string;
  launchCwd: string;
  print: boolean;
  deps: BrowserDeps;
  /** Called once with how the user left and the state it was left in; the app then unmounts. */
  onExit(outcome: Outcome, last: AppState): void;
  /**
   * The first state, with what a scan started before the UI found so far in it: made by the
   * launcher (launch.tsx), which draws its rows before Ink's first frame.
   */
  initial: AppState;
}

/** Asked for at start: where deletes go. */
const START_EFFECTS: readonly Effect[] = [{ type: "trashLocation" }];

function emptyText(s: AppState): string {
  if (s.namedOnly && s.scopeTotal > 0) {
    const key = keysLabel(s.keymap, "list.named", 1) || "list.named";
    return s.scope === "cwd"
      ? `no named session in this folder matches · ${key} shows all, Tab all folders`
      : `no named session matches · ${key} shows all`;
  }
  if (s.query.terms.length > 0 || s.query.error)
    return s.scope === "cwd"
      ? "no session in this folder matches · Tab searches all folders"
      : "no session matches the search";
  if (!s.scan.done) return "scanning…";
  if (s.scope === "cwd" && s.sessions.size > 0) return "no sessions in this folder · Tab shows all folders";
  return "no sessions in this store";
}

/** How long the cursor rests before the preview follows it: longer than a held key's repeat (~30 ms). */
export const PREVIEW_SETTLE_MS = 60;

export function App(props: AppProps) {
  const { storeDir, storeLabel, launchCwd, print, deps, onExit, initial } = props;
  // Effects reach the outside world through `io`, refreshed each render (it needs the store watcher below).
  const io = useRef<EffectIO | null>(null);
  const runner = useMemo(() => createEffectRunner(() => io.current!), []);
  useEffect(() => () => runner.dispose(), [runner]);
  const size = useTerminalSize();
  const remote = deps.remote;
  const lifecycle = useMemo(() => {
    const base = deps.lifecycle ?? realLifecycle;
    return remote ? remote.lifecycle(base) : base;
  }, [deps.lifecycle, remote]);
  const [state, dispatch, latest] = useUpdateLoop(
    update,
    () => settledFirst(initial, size, lifecycle.trashLocation() ?? null),
    runner.run,
    START_EFFECTS,
  );
  if (tracing) trace(`render: ${state.rows.length} rows, hosts ${(state.hosts ?? []).map((h) => h.state).join(",")}`);
  const { exit: unmount } = useApp();
  const now = useNow();
  const mode = modeOf(state);
  const layer = topLayer(state);
  const searchBar = searchBarShown(state);
  const layout = useMemo(
    () => computeLayout({ columns: size.columns, rows: size.rows, searchBar, previewShare: state.previewShare }),
    [size.columns, size.rows, searchBar, state.previewShare],
  );

  // The one key router. It only forwards: the reducer maps (input, key, mode) to a
  // command against the state the key applies to, so fast bursts never see a stale mode.
  // `more`: keys behind it are already read (a query typed then is derived at the last of them).
  const keysQueued = deps.keysQueued;
  useInput((input, key) => dispatch({ type: "key", input, key, ...(keysQueued?.() ? { more: true } : {}) }));
  // A bracketed paste is text for a field, never keys (its own event in Ink).
  usePaste((text) => dispatch({ type: "paste", text }));

  useEffect(() => {
    dispatch({ type: "viewport", pageSize: layout.list.height, visible: !layout.tooSmall });
  }, [layout.list.height, layout.tooSmall]);

  // A status message fades: errors after 8 s, the rest after 4 s.
  useEffect(() => {
    const status = state.status;
    if (!status) return;
    const t = setTimeout(() => dispatch({ type: "status.fade", status }), status.tone === "error" ? 8000 : 4000);
    return () => clearTimeout(t);
  }, [state.status]);

  useStoreScan(storeDir, deps.scan, dispatch);
  // Keys typed on a first screen whose rows were not the list's: dropped, and said.
  const keysDropped = deps.keysDropped;
  useEffect(() => keysDropped?.((count) => dispatch({ type: "keys.dropped", count })), [keysDropped]);
  // Other machines' answers as they come; nothing here waits for one.
  useEffect(() => {
    if (!remote) return;
    const stop = remote.subscribe((updates) => {
      dispatch({ type: "hosts.update", updates });
      trace(`hosts.update reduced: ${updates.map((u) => `${u.host.name} ${u.host.state}`).join(", ")}`);
    });
    remote.start();
    return stop;
  }, [remote]);
  // The usage view on every host counts each host's sessions: their usage is asked for then.
  const countHosts = layer?.kind === "usage" && state.scope === "hosts";
  useEffect(() => {
    if (countHosts) remote?.countEveryHost();
  }, [countHosts, remote]);
  const fullText = useMemo(() => {
    const base = deps.fullText ?? searchFiles;
    // A host searches its own sessions' text, asked with the words as typed.
    return remote ? remote.fullText(base, () => latest().search.value) : base;
  }, [deps.fullText, remote, latest]);
  useFullTextSearch(state, fullText, dispatch, undefined, undefined, deps.keysPending, deps.keysQueued);

  const exited = useRef(false);
  const exit = useCallback(
    (o: Outcome) => {
      if (exited.current) return;
      exited.current = true;
      onExit(o, latest());
      unmount();
    },
    [onExit, unmount, latest],
  );
  // Live store (after the first scan); own writes make the watcher look at once.
  const refreshStore = useStoreWatch(storeDir, deps.watch, state.scan.done, state.sessions, dispatch);
  const treeIO = useMemo(() => {
    const local = deps.tree ?? {
      ...realTreeIO,
      copy: deps.copy ?? (() => {}),
      cwdExists: deps.cwdExists,
      ...(deps.piProblem ? { piProblem: deps.piProblem } : {}),
    };
    return remote ? remote.treeIO(local) : local;
  }, [deps.tree, deps.copy, deps.cwdExists, deps.piProblem, remote]);
  // A host's session is read from its copy on this machine, brought up to date first (src/remote).
  const loadIndex = useMemo(() => {
    const base = deps.loadIndex ?? realLoadIndex;
    return remote ? remote.load(base) : base;
  }, [deps.loadIndex, remote]);
  const loadPreview = useMemo(
    () => (remote ? remote.load(deps.loadPreview) : deps.loadPreview),
    [deps.loadPreview, remote],
  );
  // pi on a host is that host's: this machine's pi and folders are not asked about.
  const cwdExists = useCallback(
    (dir: string, path?: string) => (path && remote?.owns(path) ? true : deps.cwdExists(dir)),
    [deps.cwdExists, remote],
  );
  const piProblem = useMemo(
    () => deps.piProblem && ((path?: string) => (path && remote?.owns(path) ? undefined : deps.piProblem?.(path))),
    [deps.piProblem, remote],
  );
  // Each host's trash beside this machine's, restored and deleted for good there (src/remote).
  const trashIO = useMemo(() => {
    const base = deps.trash ?? realTrashIO;
    return remote ? remote.trashIO(base) : base;
  }, [deps.trash, remote]);
  const takeoutIO = useMemo(
    () => ({
      ...realTakeoutIO,
      loadIndex,
      copy: deps.copy,
      cwdExists: deps.cwdExists,
      piProblem: deps.piProblem,
    }),
    [loadIndex, deps.copy, deps.cwdExists, deps.piProblem],
  );
  io.current = {
    lifecycle,
    tree: treeIO,
    loadIndex,
    takeout: takeoutIO,
    trash: trashIO,
    cwdExists,
    piProblem,
    exit,
    afterWrite: refreshStore,
    suspend: deps.suspend,
  };
  // Clicks and the wheel: the pane under the pointer, from the screen as laid out below.
  const listTop = useRef(0);
  const { stdin } = useStdin();
  useMouse(stdin, dispatch, {
    screen: state.reader ? "reader" : state.tree ? "tree" : "list",
    layout,
    listTop,
    rows: state.rows,
    treeRows: state.tree?.view?.rows.length,
  });
  // A query typed with keys behind it: its rows once none waits (whatever the last came to).
  useRowsDue(stdin, state.rowsPutOff === true, latest, dispatch, deps.keysQueued);

  const onChoose = useCallback((command: CommandId) => dispatch({ type: "choose", command }), []);
  const cache = useMemo(() => new PreviewCache(), []);
  const selected = selectedSession(state);
  // The preview follows the cursor once it rests (held keys redraw only the list's rows).
  const shown = useSettled(selected, PREVIEW_SETTLE_MS);
  const preview = usePreview(shown, loadPreview, cache);
  const onPreviewBounds = useCallback(
    (path: string, b: { min: number; max: number }) => dispatch({ type: "preview.bounds", path, ...b }),
    [],
  );

  if (layout.tooSmall) return <TooSmall columns={size.columns} rows={size.rows} />;

  // The one dialog switch, over whichever screen is up (it takes the height it is centred in).
  const dialogs = (height: number) => (
    <DialogHost
      layer={layer}
      keymap={state.keymap}
      launchCwd={launchCwd}
      helpTop={state.helpTop}
      width={size.columns}
      height={height}
      trashDir={state.trashDir}
      sessionTitle={selected ? sessionTitle(selected) : ""}
      print={print}
      onChoose={onChoose}
      tree={state.tree ?? undefined}
    />
  );

  if (state.reader) {
    const over = layer && layer.kind !== "reader" ? dialogs(layout.height - 3) : undefined;
    const help = layer?.kind === "help";
    return (
      <ReaderScreen
        reader={state.reader}
        mode={mode}
        keymap={state.keymap}
        print={print}
        columns={size.columns}
        rows={layout.height}
        status={state.status}
        overlay={help ? over : undefined}
        modal={help ? undefined : over}
        dispatch={dispatch}
      />
    );
  }

  if (state.tree) {
    const over = dialogUp(layer, state.tree) ? dialogs(layout.body) : undefined;
    const help = layer?.kind === "help";
    return (
      <TreeScreen
        tree={state.tree ?? undefined}
        status={state.status}
        mode={mode}
        keymap={state.keymap}
        print={print}
        layout={layout}
        overlay={help ? over : undefined}
        modal={help ? undefined : over}
        dispatch={dispatch}
        windowTop={listTop}
      />
    );
  }

  // Help takes the body; other dialogs are drawn over the list, centred.
  const help = layer?.kind === "help";
  const modal = layer && layer.kind !== "search" && !help && layer.kind !== "trash" && layer.kind !== "skipped";
  const { list, preview: pv } = layout;
  return (
    <ScreenFrame
      width={size.columns}
      height={layout.height}
      header={
        <Header
          width={size.columns}
          info={{
            storeLabel,
            scope: state.scope,
            shown: state.rows.length,
            total: state.scopeTotal,
            sort: state.sort,
            scan: state.scan,
            marked: state.marks.size,
            skippedKey: keysLabel(state.keymap, "skipped.open", 1),
            namedOnly: state.namedOnly,
            hosts: state.hosts,
          }}
        />
      }
      status={<StatusLine status={state.status} scanError={state.scan.error} width={size.columns} />}
      footer={
        <Footer
          mode={mode}
          keymap={state.keymap}
          width={size.columns}
          print={print}
          disabled={(c) => disabledReason(state, c) !== undefined}
        />
      }
    >
      {searchBar && (
        <SearchBar
          input={state.search}
          active={mode === "search"}
          width={size.columns}
          matches={state.rows.length}
          error={state.query.error}
          note={fullTextNote(state.fullText, state.query, state.scope)}
        />
      )}
      {help ? (
        dialogs(layout.body)
      ) : layer?.kind === "skipped" ? (
        <SkippedView
          skipped={state.scan.skipped}
          width={size.columns}
          height={layout.body}
          top={state.helpTop}
          closeKey={keysLabel(state.keymap, "skipped.close", 1)}
        />
      ) : layer?.kind === "usage" ? (
        <UsageScreen
          rows={state.rows}
          layer={layer}
          scope={state.scope}
          hosts={state.hosts}
          search={state.search.value}
          width={size.columns}
          height={layout.body}
          dispatch={dispatch}
        />
      ) : layer?.kind === "trash" ? (
        <Box height={layout.body} flexShrink={0}>
          <TrashScreen
            layer={layer}
            width={size.columns}
            height={layout.body}
            now={now}
            dimmed={!!layer.purge}
            dispatch={dispatch}
          />
          {layer.purge && dialogs(layout.body)}
        </Box>
      ) : (
        <Box flexDirection={pv.position === "right" ? "row" : "column"} height={layout.body} flexShrink={0}>
          <SessionList
            rows={state.rows}
            cursor={state.cursor}
            width={list.width}
            height={list.height}
            showCwd={state.scope !== "cwd"}
            showPath={state.showPaths}
            emptyText={emptyText(state)}
            now={now}
            marks={state.marks}
            openInPi={state.openInPi}
            {...listFrameText(state.scope, state.cursor, state.rows.length)}
            focused={!modal}
            query={state.query}
            dimmed={!!modal}
            windowTop={listTop}
            ageOf={ageOfSort(state.sort)}
          />
          {pv.width > 0 && pv.height > 0 && (
            <PreviewPane
              session={shown}
              state={preview}
              position={pv.position}
              width={pv.width}
              height={pv.height}
              inner={pv.inner}
              offset={previewOffset(state)}
              query={state.query}
              onBounds={onPreviewBounds}
              dimmed={!!modal}
            />
          )}
          {modal && dialogs(layout.body)}
        </Box>
      )}
    </ScreenFrame>
  );
}
