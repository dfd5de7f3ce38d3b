import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { ChoiceList } from "./ChoiceList.js";

const choices = [
  { label: "Markdown", keys: "m", command: "export.md" as const },
  { label: "Cancel", keys: "Esc", command: "export.cancel" as const },
];

describe("ChoiceList", () => {
  it("lists the choices with their keys at the right, the first selected; Enter chooses it", async () => {
    const chosen: string[] = [];
    const { lastFrame, stdin } = render(<ChoiceList choices={choices} width={30} onChoose={(c) => chosen.push(c)} />);
    expect(lastFrame()).toMatchInlineSnapshot(`
      " ❯ Markdown                m
         Cancel                Esc"
    `);
    stdin.write("\r");
    await new Promise((r) => setTimeout(r, 20));
    expect(chosen).toEqual(["export.md"]);
  });
});
