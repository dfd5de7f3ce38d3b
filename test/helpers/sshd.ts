import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { userInfo } from "node:os";
import { join } from "node:path";
import { controlDir, controlPath } from "../../src/remote/ssh.js";
import { REPO } from "./tmp-store.js";

/*
 * A real OpenSSH server on 127.0.0.1 for the remote tests: its own sshd on a free port
 * with a generated host key, one generated client key per "host", and for each host a
 * remote environment of its own (HOME, store, PATH with a `pi-sessions` of this checkout's
 * build), chosen by the key the client logs in with (authorized_keys `command=`). The
 * client reaches the hosts by name through its own ssh_config (PI_SESSIONS_SSH="ssh -F …").
 * Where sshd cannot run here, startSshd says why and the tests skip: nothing is mocked.
 */

export interface RemoteHost {
  name: string;
  /** The host's HOME. */
  home: string;
  /** Its store: HOME/.pi/agent/sessions. */
  store: string;
  /** A folder on its PATH (before the system's), holding `pi-sessions`. */
  bin: string;
}

export interface Sshd {
  dir: string;
  port: number;
  hosts: RemoteHost[];
  /** The client's ssh_config. */
  config: string;
  /** What a client run needs: PI_SESSIONS_SSH, and a private runtime folder for the control sockets. */
  env: NodeJS.ProcessEnv;
  /** Stops the master connections and sshd, and removes everything. */
  stop(): Promise<void>;
  /** Stops sshd (a host "goes down") and every connection to it; stop() still cleans up. */
  kill(): Promise<void>;
}

const SSHD = ["/usr/sbin/sshd", "/usr/local/sbin/sshd"].find((p) => existsSync(p));

function which(cmd: string): string | undefined {
  const r = spawnSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(port, "127.0.0.1");
    c.once("connect", () => {
      c.destroy();
      resolve(true);
    });
    c.once("error", () => resolve(false));
  });
}

/** The `pi-sessions` a host runs: this checkout's bundle on the Node running the tests. */
export const CLI = join(REPO, "dist", "bundle", "cli.js");

/** Why the remote tests cannot run here, or undefined. */
export function sshdUnavailable(): string | undefined {
  if (process.platform === "win32") return "no OpenSSH server on Windows";
  if (!SSHD) return "no sshd (Debian: apt-get install openssh-server)";
  if (!which("ssh") || !which("ssh-keygen")) return "no ssh or ssh-keygen";
  if (!existsSync(CLI)) return "no build (npm run build)";
  return undefined;
}

/**
 * Starts sshd with one remote environment per name in `hosts`. `seed` fills each host's
 * home (its store, a fake pi) before the first connection.
 */
export async function startSshd(hosts: string[], seed?: (h: RemoteHost) => void): Promise<Sshd | { skip: string }> {
  const why = sshdUnavailable();
  if (why) return { skip: why };
  // Short: the control sockets live under it (a socket path has about 100 bytes).
  const dir = mkdtempSync("/tmp/pss-");
  const me = userInfo();
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const keygen = (file: string) =>
    spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "pi-sessions-test", "-f", file]);
  if (keygen(join(dir, "host_key")).status !== 0) return { skip: "ssh-keygen failed" };
  const made: RemoteHost[] = [];
  const authorized: string[] = [];
  for (const name of hosts) {
    const home = join(dir, "hosts", name);
    const bin = join(home, "bin");
    const store = join(home, ".pi", "agent", "sessions");
    mkdirSync(bin, { recursive: true });
    mkdirSync(store, { recursive: true });
    writeFileSync(join(bin, "pi-sessions"), `#!/bin/sh\nexec ${q(process.execPath)} ${q(CLI)} "$@"\n`);
    chmodSync(join(bin, "pi-sessions"), 0o755);
    // The host's environment, whatever the login shell would have: the key chooses the host.
    const enter = join(home, "enter");
    writeFileSync(
      enter,
      [
        "#!/bin/sh",
        `HOME=${q(home)}; export HOME`,
        `PATH=${q(bin)}:/usr/local/bin:/usr/bin:/bin; export PATH`,
        `XDG_CACHE_HOME=${q(join(home, ".cache"))}; export XDG_CACHE_HOME`,
        `XDG_DATA_HOME=${q(join(home, ".local", "share"))}; export XDG_DATA_HOME`,
        `XDG_CONFIG_HOME=${q(join(home, ".config"))}; export XDG_CONFIG_HOME`,
        "unset PI_CODING_AGENT_DIR PI_CODING_AGENT_SESSION_DIR PI_SESSIONS_CACHE_DIR XDG_RUNTIME_DIR",
        'cd "$HOME" || exit 1',
        'if [ -z "$SSH_ORIGINAL_COMMAND" ]; then exec /bin/sh -i; fi',
        'exec /bin/sh -c "$SSH_ORIGINAL_COMMAND"',
        "",
      ].join("\n"),
    );
    chmodSync(enter, 0o755);
    const key = join(dir, "keys", name);
    mkdirSync(join(dir, "keys"), { recursive: true });
    if (keygen(key).status !== 0) return { skip: "ssh-keygen failed" };
    authorized.push(`command="${enter}" ${readFileSync(`${key}.pub`, "utf8").trim()}`);
    const h = { name, home, store, bin };
    seed?.(h);
    made.push(h);
  }
  writeFileSync(join(dir, "authorized_keys"), authorized.join("\n") + "\n", { mode: 0o600 });
  const port = await freePort();
  const sshdConfig = join(dir, "sshd_config");
  writeFileSync(
    sshdConfig,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${join(dir, "host_key")}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      "StrictModes no",
      "UsePAM no",
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      `AllowUsers ${me.username}`,
      "PrintMotd no",
      "LogLevel ERROR",
      "",
    ].join("\n"),
  );
  // sshd run by root needs its privilege separation folder.
  if (process.getuid?.() === 0 && !existsSync("/run/sshd")) {
    try {
      mkdirSync("/run/sshd", { mode: 0o755 });
    } catch {
      // said below, if sshd then refuses
    }
  }
  let stderr = "";
  const sshd: ChildProcess = spawn(SSHD!, ["-D", "-e", "-f", sshdConfig], { stdio: ["ignore", "ignore", "pipe"] });
  sshd.stderr!.on("data", (b: Buffer) => (stderr += b.toString()));
  let exited = false;
  sshd.once("exit", () => (exited = true));
  const started = Date.now();
  while (!(await listening(port))) {
    if (exited || Date.now() - started > 10_000) {
      sshd.kill();
      rmSync(dir, { recursive: true, force: true });
      return { skip: `sshd did not start: ${stderr.trim().split("\n").at(-1) ?? "no output"}` };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const config = join(dir, "ssh_config");
  writeFileSync(
    config,
    made
      .map((h) =>
        [
          `Host ${h.name}`,
          "  HostName 127.0.0.1",
          `  Port ${port}`,
          `  User ${me.username}`,
          `  IdentityFile ${join(dir, "keys", h.name)}`,
          "  IdentitiesOnly yes",
          "  StrictHostKeyChecking no",
          `  UserKnownHostsFile ${join(dir, "known_hosts")}`,
          "  LogLevel ERROR",
          "",
        ].join("\n"),
      )
      .join("\n"),
  );
  const runtime = join(dir, "r");
  mkdirSync(runtime, { mode: 0o700 });
  const env = { PI_SESSIONS_SSH: `ssh -F ${config}`, XDG_RUNTIME_DIR: runtime };
  const exitMasters = () => {
    // The master connections this run's ssh left (ControlPersist), by their own control command.
    const sockets = controlDir({ ...env });
    if (!sockets) return;
    for (const h of made)
      spawnSync("ssh", ["-F", config, "-o", `ControlPath=${controlPath(sockets, h.name)}`, "-O", "exit", h.name], {
        stdio: "ignore",
        timeout: 5000,
      });
  };
  const kill = async () => {
    exitMasters();
    if (!exited) {
      sshd.kill("SIGTERM");
      await new Promise((r) => (exited ? r(undefined) : sshd.once("exit", r)));
    }
  };
  return {
    dir,
    port,
    hosts: made,
    config,
    env,
    kill,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Copies a store (a folder of project folders) into a host's store. */
export function seedStore(h: RemoteHost, from: string): void {
  cpSync(from, h.store, { recursive: true, preserveTimestamps: true });
}
