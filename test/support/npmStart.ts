// `npm start` as a terminal runs it: in its own process group, so a signal reaches every process it started
// (npm, tsx, the service, the Hardhat node). For tests and benches that run the embedded default whole.
import { type ChildProcess, spawn } from "node:child_process";
import { projectPath } from "../../config/projectRoot";

const STARTED = /API \(canonical\)\s+(http:\/\/\S+)\/api\/v1\/health/;
/** How long a start may take before it counts as failed. */
export const START_PATIENCE_MS = 120_000;

export interface RunningStart {
  child: ChildProcess;
  /** The API's base URL, as its start screen prints it. */
  apiUrl: string;
}

/** Resolved once the start screen is printed; rejected with the output's end if it exits or takes too long. */
export function npmStart(env: Record<string, string>): Promise<RunningStart> {
  const { DATABASE_URL: _unset, ...inherited } = process.env;
  const child = spawn("npm", ["start"], {
    cwd: projectPath(),
    env: { ...inherited, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`npm start did not start: ${output.slice(-3000)}`)),
      START_PATIENCE_MS,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const apiUrl = STARTED.exec(output)?.[1];
      if (apiUrl === undefined) return;
      clearTimeout(timer);
      done({ child, apiUrl });
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`npm start exited with ${code}: ${output.slice(-3000)}`));
    });
  });
}

/** `signal` to the whole group, resolved once npm has exited. */
export function signalGroup({ child }: RunningStart, signal: NodeJS.Signals): Promise<void> {
  child.removeAllListeners("exit");
  const gone = new Promise<void>((done) => child.once("exit", () => done()));
  process.kill(-(child.pid as number), signal);
  return gone;
}
