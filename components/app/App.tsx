import { Box, useApp, useInput } from "ink";
import { useCallback, useEffect, useMemo, useReducer, useRef } from "react";
import { DialogHost } from "../dialogs/DialogHost.js";
import { Footer } from "../footer/Footer.js";
import { Header } from "../header/Header.js";
import { useEffectRunner } from "../hooks/useEffectRunner.js";
import { useNow } from "../hooks/useNow.js";
import { PreviewCache, usePreview } from "../hooks/usePreview.js";
import { useStoreScan } from "../hooks/useStoreScan.js";
import type { Keymap } from "../keys/keymap.js";
import { computeLayout } from "../layout/layout.js";
import { useTerminalSize } from "../layout/useTerminalSize.js";
import { SessionList } from "../list/SessionList.js";
import { PreviewPane } from "../preview/PreviewPane.js";
import { SearchBar } from "../search/SearchBar.js";
import { type AppState, appReducer, initialState, modeOf, selectedSession, topLayer } from "../state/appReducer.js";
import type { Outcome } from "../state/effects.js";
import { TooSmall } from "../TooSmall.js";
import type { BrowserDeps } from "./deps.js";

export interface AppProps {
  storeDir: string;
  storeLabel: string;
  launchCwd: string;
  all: boolean;
  print: boolean;
  deps: BrowserDeps;
  /** Called once with how the user left; the app then unmounts. */
  onExit(outcome: Outcome): void;
  keymap?: Keymap;
}

function emptyText(s: AppState): string {
  if (s.query.terms.length > 0 || s.query.error) return "no session matches the search";
  if (!s.scan.done) return "scanning…";
  if (s.scope === "cwd" && s.sessions.size > 0) return "no sessions in this folder · Tab shows all folders";
  return "no sessions in this store";
}

export function App({ storeDir, storeLabel, launchCwd, all, print, deps, onExit, keymap }: AppProps) {
  const [state, dispatch] = useReducer(appReducer, { launchCwd, all, print, keymap }, initialState);
  const { exit: unmount } = useApp();
  const size = useTerminalSize();
  const now = useNow();
  const mode = modeOf(state);
  const layer = topLayer(state);
  const searchBar = mode === "search" || state.search.value !== "";
  const layout = useMemo(() => computeLayout({ ...size, searchBar }), [size, searchBar]);

  // The one key router. It only forwards: the reducer maps (input, key, mode) to a
  // command against the state the key applies to, so fast bursts never see a stale mode.
  useInput((input, key) => dispatch({ type: "key", input, key }));

  useEffect(() => {
    dispatch({ type: "viewport", pageSize: layout.list.height });
  }, [layout.list.height]);

  useStoreScan(storeDir, deps.scan, dispatch);

  const exited = useRef(false);
  const exit = useCallback(
    (o: Outcome) => {
      if (exited.current) return;
      exited.current = true;
      onExit(o);
      unmount();
    },
    [onExit, unmount],
  );
  useEffectRunner(state.effects, dispatch, deps.cwdExists, exit);

  const cache = useMemo(() => new PreviewCache(), []);
  const selected = selectedSession(state);
  const preview = usePreview(selected, deps.loadPreview, cache);

  if (layout.tooSmall) return <TooSmall columns={size.columns} rows={size.rows} />;

  const overlay = layer && layer.kind !== "search";
  const { list, preview: pv } = layout;
  return (
    <Box flexDirection="column" width={size.columns} height={layout.height}>
      <Header
        width={size.columns}
        info={{ storeLabel, scope: state.scope, shown: state.rows.length, total: state.scopeTotal, sort: state.sort, scan: state.scan }}
      />
      {searchBar && <SearchBar input={state.search} active={mode === "search"} width={size.columns} matches={state.rows.length} error={state.query.error} />}
      {overlay ? (
        <DialogHost layer={layer} keymap={state.keymap} launchCwd={launchCwd} helpTop={state.helpTop} width={size.columns} height={layout.body} />
      ) : (
        <Box flexDirection={pv.position === "right" ? "row" : "column"} height={layout.body} flexShrink={0}>
          <SessionList
            rows={state.rows}
            cursor={state.cursor}
            width={list.width}
            height={list.height}
            showCwd={state.scope === "all"}
            emptyText={emptyText(state)}
            now={now}
          />
          <PreviewPane session={selected} state={preview} position={pv.position} width={pv.width} height={pv.height} inner={pv.inner} />
        </Box>
      )}
      <Footer mode={mode} keymap={state.keymap} width={size.columns} print={print} message={state.scan.error ? `scan failed: ${state.scan.error}` : undefined} />
    </Box>
  );
}
