import { mayBeOpenInPi, OPEN_IN_PI_WARNING } from "../../src/actions/recent-write.js";
import { HelpOverlay } from "../help/HelpOverlay.js";
import { type Keymap, keysLabel } from "../../src/browser/keys/keymap.js";
import type { CommandId } from "../../src/browser/keys/commands.js";
import type { Layer } from "../../src/browser/app/appReducer.js";
import { ActionMenu } from "./ActionMenu.js";
import { DeleteDialog } from "./DeleteDialog.js";
import { RenameDialog } from "./RenameDialog.js";
import { ExportDialog } from "./ExportDialog.js";
import { sanitizeLine } from "../../src/text/sanitize.js";
import { basename } from "node:path";
import { rowText } from "../../src/model/row-text.js";
import type { TreeState } from "../../src/browser/tree/treeState.js";
import { ConfirmWriteDialog } from "./ConfirmWriteDialog.js";
import { LabelDialog } from "./LabelDialog.js";
import { PurgeDialog } from "./PurgeDialog.js";

interface Props {
  layer: Layer | undefined;
  keymap: Keymap;
  launchCwd: string;
  helpTop: number;
  width: number;
  height: number;
  /** For the delete confirmation: the trash folder, null when there is none. */
  trashDir?: string | null;
  /** The selected session's title (the action menu names it). */
  sessionTitle?: string;
  print?: boolean;
  /** A choice made in a select list (the missing-folder dialog, the action menu). */
  onChoose?(command: CommandId): void;
  /** The branch tree, when it is the screen: its write-anyway question and its label field. */
  tree?: TreeState;
}

/** The one place that decides which dialog or overlay is up. Null when none is. */
export function DialogHost({
  layer,
  keymap,
  launchCwd,
  helpTop,
  width,
  height,
  trashDir,
  sessionTitle = "",
  print = false,
  onChoose = () => {},
  tree,
}: Props) {
  switch (layer?.kind) {
    case "tree":
      // The tree is a screen (TreeScreen draws it); its own questions are dialogs like any.
      if (tree?.confirm)
        return <ConfirmWriteDialog write={tree.confirm} fileName={basename(tree.path)} width={width} height={height} />;
      if (tree?.input?.kind === "label") {
        const target = tree.input.entryId ? tree.index?.byId.get(tree.input.entryId) : undefined;
        return (
          <LabelDialog
            entryText={target ? rowText(target, tree.calls).text : ""}
            input={tree.input.text}
            width={width}
            height={height}
          />
        );
      }
      return null;
    case "help":
      return (
        <HelpOverlay
          keymap={keymap}
          width={width}
          height={height}
          top={helpTop}
          first={layer.first}
          filter={layer.filter?.value}
          typing={layer.typing}
        />
      );
    case "menu":
      return (
        <ActionMenu
          title={sessionTitle}
          screen={layer.screen}
          keymap={keymap}
          print={print}
          areaWidth={width}
          areaHeight={height}
          onChoose={onChoose}
        />
      );
    case "rename":
      return (
        <RenameDialog
          title={layer.title}
          input={layer.input}
          warning={!layer.ours && mayBeOpenInPi(layer.mtimeMs, Date.now()) ? `⚠ It ${OPEN_IN_PI_WARNING}.` : undefined}
          width={width}
          height={height}
        />
      );
    case "delete":
      return (
        <DeleteDialog
          step={layer.step}
          targets={layer.targets}
          bulk={layer.bulk}
          reason={layer.reason}
          permanent={layer.permanent}
          hidden={layer.hidden}
          trashDir={trashDir}
          yesKeys={keysLabel(keymap, "confirm.delete", 2, "confirmDelete").replace("/", " or ")}
          noKeys={keysLabel(keymap, "confirm.cancel", 2, "confirmDelete").replace("/", " or ")}
          now={Date.now()}
          width={width}
          height={height}
        />
      );
    case "export":
      return (
        <ExportDialog
          title={sanitizeLine(layer.title)}
          dir={sanitizeLine(launchCwd)}
          keymap={keymap}
          areaWidth={width}
          areaHeight={height}
          onChoose={onChoose}
        />
      );
    case "trash":
      // The trash is a screen (TrashScreen); its delete-for-good questions are dialogs.
      return layer.purge ? (
        <PurgeDialog record={layer.purge.record} step={layer.purge.step} width={width} height={height} />
      ) : null;
    case "search":
    case "reader": // the reader is a screen, drawn by ReaderScreen
    case undefined:
      return null;
  }
}
