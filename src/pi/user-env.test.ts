import { delimiter } from "node:path";
import { describe, expect, it } from "vitest";
import { userEnv, userPath } from "./user-env.js";

const P = (...dirs: string[]) => dirs.join(delimiter);
/** What `npm start` in /home/me/pi-sessions makes of PATH /home/me/bin:/usr/bin. */
const NPM_PATH = P(
  "/home/me/pi-sessions/node_modules/.bin",
  "/home/me/node_modules/.bin",
  "/home/node_modules/.bin",
  "/node_modules/.bin",
  "/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin",
  "/home/me/bin",
  "/usr/bin",
);
const NPM = { npm_lifecycle_event: "start", npm_package_json: "/home/me/pi-sessions/package.json" };

describe("userEnv", () => {
  it("drops what npm put in front of PATH, and its npm_* variables, under npm start", () => {
    const env = userEnv({ ...NPM, PATH: NPM_PATH, npm_config_prefix: "/usr", INIT_CWD: "/x", HOME: "/home/me" });
    expect(env).toEqual({ PATH: P("/home/me/bin", "/usr/bin"), HOME: "/home/me" });
  });

  it("drops a nested npm run's entries and npx's before them", () => {
    const nested = P("/home/me/.npm/_npx/abc/node_modules/.bin", "/home/me/pi-sessions/node_modules/.bin", NPM_PATH);
    expect(userEnv({ ...NPM, PATH: nested }).PATH).toBe(P("/home/me/bin", "/usr/bin"));
  });

  it("keeps a node_modules/.bin that the user's own PATH holds after its first entry", () => {
    expect(userPath(P("/home/me/bin", "/home/me/tools/node_modules/.bin"))).toBe(
      P("/home/me/bin", "/home/me/tools/node_modules/.bin"),
    );
  });

  it("leaves the environment as it is outside npm", () => {
    const env = { PATH: NPM_PATH, HOME: "/home/me" };
    expect(userEnv(env)).toBe(env);
  });
});
