import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configPath, DEFAULT_CONFIG, loadConfig } from "./config.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function file(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-config-"));
  dirs.push(dir);
  const p = join(dir, "config.json");
  writeFileSync(p, text);
  return p;
}

describe("configPath", () => {
  it("prefers --config, then $XDG_CONFIG_HOME, then ~/.config", () => {
    expect(configPath("my.json", {}, "/w")).toBe("/w/my.json");
    expect(configPath(undefined, { XDG_CONFIG_HOME: "/x" })).toBe("/x/pi-sessions/config.json");
    expect(configPath(undefined, { HOME: "/h" })).toBe("/h/.config/pi-sessions/config.json");
  });
});

describe("loadConfig", () => {
  it("gives the defaults without warnings when there is no file", () => {
    expect(loadConfig("/nonexistent/config.json")).toEqual({ config: DEFAULT_CONFIG, warnings: [] });
  });

  it("applies valid settings", () => {
    const { config, warnings } = loadConfig(
      file(
        JSON.stringify({
          keys: { "list.down": ["n", "down"], "app.quit": "x" },
          scope: "all",
          sort: "size",
          threaded: true,
          theme: "none",
          searchToolOutput: true,
          mouse: false,
          piCommand: "pi --verbose",
          afterPi: "return",
          hosts: ["devbox", " gpu ", "devbox"],
          ssh: "ssh -F ./ssh_config",
        }),
      ),
    );
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      keys: { "list.down": ["n", "down"], "app.quit": ["x"] },
      scope: "all",
      sort: "size",
      threaded: true,
      theme: "none",
      searchToolOutput: true,
      mouse: false,
      piCommand: "pi --verbose",
      afterPi: "return",
      hosts: ["devbox", "gpu"],
      ssh: "ssh -F ./ssh_config",
    });
  });

  it("warns once per unknown key or invalid value and keeps the defaults for them", () => {
    const { config, warnings } = loadConfig(
      file(
        JSON.stringify({
          sort: "random",
          colour: "red",
          threaded: "yes",
          keys: { "list.up": 5 },
          afterPi: "stay",
          hosts: "devbox",
          ssh: 3,
        }),
      ),
    );
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(warnings).toHaveLength(7);
    expect(warnings.join("\n")).toMatch(/"hosts" must be a list of host names/);
    expect(warnings.join("\n")).toMatch(/"afterPi" must be one of exit, return/);
    expect(warnings.join("\n")).toMatch(/"sort" must be one of/);
    expect(warnings.join("\n")).toMatch(/unknown setting "colour"/);
  });

  it("turns a broken file into one warning and the defaults", () => {
    const { config, warnings } = loadConfig(file("{ not json"));
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/not valid JSON/);
  });
});
