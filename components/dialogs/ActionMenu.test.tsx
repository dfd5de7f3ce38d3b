import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { DEFAULT_KEYMAP } from "../../src/browser/keys/keymap.js";
import { ActionMenu } from "./ActionMenu.js";

describe("ActionMenu", () => {
  it("lists the screen's actions with their keys, and says when more are below", () => {
    const { lastFrame } = render(
      <Box width={80} height={14}>
        <ActionMenu
          title="a session"
          screen="tree"
          keymap={DEFAULT_KEYMAP}
          print={false}
          areaWidth={80}
          areaHeight={14}
          onChoose={() => {}}
        />
      </Box>,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "         ╭─ Actions · a session ─────────────────────────────────────╮
               │ ❯ Resume in pi at this entry                         Enter│
               │   Fork: a new session ending here                        f│
               │   Label this entry                                       L│
               │   Read the branch through this entry                     v│
               │   Export the branch through this entry                   e│
               │   Copy this entry's text                                 y│
               │   Copy the file path                                     p│
               │   Copy the session id                                    i│
               │   Copy the resume command                                c│
               │   Search the entries                                     /│
               │                                                           │
               │ ↑↓ more (10 of 14 shown) · Enter or its key runs it · Es… │
               ╰───────────────────────────────────────────────────────────╯"
    `);
    expect(lastFrame()).toContain("Fork: a new session ending here");
    expect(lastFrame()).toMatch(/↑↓ more \(\d+ of 14 shown\)/);
  });
});
