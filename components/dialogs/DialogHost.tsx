import { HelpOverlay } from "../help/HelpOverlay.js";
import type { Keymap } from "../keys/keymap.js";
import type { Layer } from "../state/appReducer.js";
import { CwdMissingDialog } from "./CwdMissingDialog.js";

interface Props {
  layer: Layer | undefined;
  keymap: Keymap;
  launchCwd: string;
  helpTop: number;
  width: number;
  height: number;
}

/** The one place that decides which dialog or overlay is up. Null when none is. */
export function DialogHost({ layer, keymap, launchCwd, helpTop, width, height }: Props) {
  switch (layer?.kind) {
    case "help":
      return <HelpOverlay keymap={keymap} width={width} height={height} top={helpTop} />;
    case "cwdMissing":
      return <CwdMissingDialog cwd={layer.cwd} launchCwd={launchCwd} width={width} height={height} />;
    case "search":
    case undefined:
      return null;
  }
}
