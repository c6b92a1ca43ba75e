// `npm start` (scripts/start.ts) as its own process, configured only through the environment as an operator
// configures it: the API, both indexers and the worker together. Its output goes to a log file; it is ready
// when it prints its start-up screen. It runs in a process group of its own so that stopping it also ends
// the Ponder child it spawned, even when it has to be killed.
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const REPO_ROOT = resolve(__dirname, "../..");
const READY_LINE = "Identity protection service is running.";
const START_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 20_000;
const LOG_TAIL_LINES = 30;

export interface ServiceProcess {
  pid: number;
  logPath: string;
  /** Resolves with the exit code or signal once the process ends, for whatever reason. */
  exited: Promise<string>;
  /** SIGTERM (the service stops its parts in reverse order), SIGKILL to its group after a grace period. */
  stop(): Promise<void>;
}

function logTail(logPath: string): string {
  return readFileSync(logPath, "utf8").split("\n").slice(-LOG_TAIL_LINES).join("\n");
}

export async function startServiceProcess(
  env: Record<string, string>,
  logPath: string,
): Promise<ServiceProcess> {
  const log = createWriteStream(logPath);
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", join(REPO_ROOT, "scripts/start.ts")],
    {
      cwd: REPO_ROOT,
      env: { METRICS_PORT: "0", ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  const pid = child.pid as number;
  const exited = new Promise<string>((done) =>
    child.once("exit", (code, signal) => done(signal ?? `code ${code}`)),
  );
  let output = "";
  const ready = new Promise<void>((done) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      log.write(chunk);
      output += chunk.toString();
      if (output.includes(READY_LINE)) done();
    });
  });
  child.stderr?.on("data", (chunk: Buffer) => log.write(chunk));

  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // The group has already gone.
    }
  };
  const killOnExit = () => killGroup("SIGKILL");
  // A bench that dies must not leave the service running.
  process.on("exit", killOnExit);
  const stop = async () => {
    process.off("exit", killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => killGroup("SIGKILL"), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
    // Whatever the service left behind in its group (normally nothing) goes with it.
    killGroup("SIGKILL");
    log.end();
  };

  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    ready.then(() => "ready"),
    exited.then((how) => `exited (${how})`),
    new Promise<string>((done) => {
      timer = setTimeout(() => done(`not ready after ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
  if (outcome !== "ready") {
    await stop();
    throw new Error(`npm start ${outcome}; the end of its log (${logPath}):\n${logTail(logPath)}`);
  }
  return { pid, logPath, exited, stop };
}
