import { join } from "node:path";
import { copyStore, PI_STORE } from "../helpers/tmp-store.js";
import { startApp, type RunningApp } from "./pty.js";

/**
 * A temp copy of the pi-generated store with the trash and the trash log beside it
 * (XDG_DATA_HOME, XDG_STATE_HOME in the temp dir): `start` opens the browser on it, as
 * often as a test needs (a restart keeps the trash); every app started is in `apps`.
 */
export function trashStore(apps: RunningApp[]) {
  const store = copyStore(PI_STORE);
  const tmp = join(store, "..");
  const env = { XDG_DATA_HOME: join(tmp, "data"), XDG_STATE_HOME: join(tmp, "state") };
  const start = () => {
    const app = startApp(["--session-dir", store, "--all"], { env, cwd: tmp });
    apps.push(app);
    return app;
  };
  return { store, trash: join(env.XDG_DATA_HOME, "Trash"), start };
}
