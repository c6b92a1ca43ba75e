// A private PostgreSQL cluster for a bench that must stop and start its database (the machine's own cluster is
// shared and never touched). Debian's server binaries run as the `postgres` OS user (the server refuses root) on
// a data directory in a temp folder it owns, on a free port of 127.0.0.1; `stop()` and `start()` are the
// operator's `pg_ctl stop -m fast` / `pg_ctl start`. `destroy()` (also run on process exit) removes it all.
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "../../test/support/testDatabase";

const POSTGRES_LIB = "/usr/lib/postgresql";
const OS_USER = "postgres";
/** Seconds pg_ctl waits for the server to start or stop before giving up. */
const PG_CTL_WAIT_SECONDS = "60";
const run = promisify(execFile);

export interface PrivatePostgres {
  url: string;
  /** Where the server writes its log. */
  logPath: string;
  /** `pg_ctl stop -m <mode>`: every connection is dropped; resolves once the server is down. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** `pg_ctl start`: resolves once the server accepts connections. */
  start(): Promise<void>;
  /** Stops the server at once (if running) and deletes its files. */
  destroy(): void;
}

/** The newest installed major version's bin folder (Debian: /usr/lib/postgresql/<major>/bin). */
function binFolder(): string {
  const majors = existsSync(POSTGRES_LIB)
    ? readdirSync(POSTGRES_LIB).filter((entry) => existsSync(join(POSTGRES_LIB, entry, "bin", "pg_ctl")))
    : [];
  const newest = majors.sort((left, right) => Number(right) - Number(left))[0];
  if (newest === undefined)
    throw new Error(
      `No PostgreSQL server binaries under ${POSTGRES_LIB}/<version>/bin; install the Debian package postgresql.`,
    );
  return join(POSTGRES_LIB, newest, "bin");
}

const asRoot = () => process.getuid?.() === 0;

/** The command line that runs a server binary as the postgres OS user when we are root, else as ourselves. */
function asPostgres(binary: string, args: string[]): [string, string[]] {
  return asRoot() ? ["runuser", ["-u", OS_USER, "--", binary, ...args]] : [binary, args];
}

/** The postgres OS user's uid and gid, for handing it the cluster's folder. */
function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync("id", [flag, OS_USER], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binFolder();
  const root = mkdtempSync(join(tmpdir(), "bench-postgres-"));
  if (asRoot()) {
    const { uid, gid } = postgresIds();
    chownSync(root, uid, gid);
  }
  const dataDir = join(root, "data");
  const logPath = join(root, "postgres.log");
  const port = await freePort();
  const pgCtl = join(bin, "pg_ctl");
  // Commands run from a folder the postgres user may enter.
  const exec = (binary: string, args: string[]) => run(...asPostgres(binary, args), { cwd: root });
  let running = false;
  let destroyed = false;

  const start = async () => {
    const serverOptions = `-p ${port} -h 127.0.0.1 -k ${root}`;
    const args = [
      "start",
      "-D",
      dataDir,
      "-l",
      logPath,
      "-o",
      serverOptions,
      "-w",
      "-t",
      PG_CTL_WAIT_SECONDS,
    ];
    await exec(pgCtl, args);
    running = true;
  };
  const stop = async (mode: "fast" | "immediate" = "fast") => {
    await exec(pgCtl, ["stop", "-D", dataDir, "-m", mode, "-w", "-t", PG_CTL_WAIT_SECONDS]);
    running = false;
  };
  const destroy = () => {
    if (destroyed) return;
    destroyed = true;
    process.off("exit", destroy);
    // Synchronous: this also runs in the process's exit handler.
    if (running) spawnSync(...asPostgres(pgCtl, ["stop", "-D", dataDir, "-m", "immediate"]), { cwd: root });
    running = false;
    rmSync(root, { recursive: true, force: true });
  };
  // A bench that dies must not leave a server running on the machine.
  process.on("exit", destroy);
  try {
    await exec(join(bin, "initdb"), [
      "-D",
      dataDir,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--no-sync",
    ]);
    await start();
  } catch (error) {
    destroy();
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, logPath, start, stop, destroy };
}
