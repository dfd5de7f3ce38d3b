import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { cleanupInk, press, renderInk } from "../../test/helpers/ink.js";
import { DEFAULT_KEYMAP } from "../../src/browser/keys/keymap.js";
import { CwdMissingDialog } from "./CwdMissingDialog.js";

const dialog = (onChoose: (c: string) => void = () => {}) => (
  <CwdMissingDialog
    cwd="/gone/away"
    launchCwd="/home/u/proj"
    keymap={DEFAULT_KEYMAP}
    areaWidth={80}
    areaHeight={14}
    onChoose={onChoose}
  />
);

describe("CwdMissingDialog", () => {
  it("offers pi 1.5.2's three choices, naming the missing folder and this one", () => {
    const { lastFrame } = render(
      <Box width={80} height={14}>
        {dialog()}
      </Box>,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "

              ╭─ Folder missing ─────────────────────────────────────────────╮
              │ The session's folder no longer exists:                       │
              │   /gone/away                                                 │
              │ current folder: /home/u/proj                                 │
              │                                                              │
              │   Continue in the current folder                            o│
              │   Fork into the current folder (a new session)              f│
              │ ❯ Cancel                                                  Esc│
              │ ↑↓ choose · Enter or the key at the right                    │
              ╰──────────────────────────────────────────────────────────────╯

      "
    `);
    expect(lastFrame()).toContain("Fork into the current folder");
  });

  it("Enter cancels (the focus starts on Cancel); after ↑↑ Enter continues", async () => {
    const chosen: string[] = [];
    const r = await renderInk(dialog((c) => chosen.push(c)));
    await press(r, "\r");
    expect(chosen).toEqual(["dialog.cancel"]);
    await press(r, "\x1b[A", "\x1b[A", "\r");
    expect(chosen).toEqual(["dialog.cancel", "dialog.confirm"]);
    await cleanupInk();
  });
});
