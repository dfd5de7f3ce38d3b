import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { ChoiceList } from "./ChoiceList.js";

const choices = [
  { label: "Continue here", keys: "o", command: "dialog.confirm" as const },
  { label: "Cancel", keys: "Esc", command: "dialog.cancel" as const },
];

describe("ChoiceList", () => {
  it("lists the choices with their keys at the right, the first selected; Enter chooses it", async () => {
    const chosen: string[] = [];
    const { lastFrame, stdin } = render(<ChoiceList choices={choices} width={30} onChoose={(c) => chosen.push(c)} />);
    expect(lastFrame()).toMatchInlineSnapshot(`
      " ❯ Continue here           o
         Cancel                Esc"
    `);
    stdin.write("\r");
    await new Promise((r) => setTimeout(r, 20));
    expect(chosen).toEqual(["dialog.confirm"]);
  });
});
