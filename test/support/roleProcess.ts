// A production role (`npm run api`, `npm run worker`, `npm run indexer:*`) started as its own process from its
// compiled bundle, the way a deployment runs it, for tests that need several roles against one database.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { compiledRole } from "./compiledRoles";
import type { TestDatabase } from "./testDatabase";

const ROOT = join(__dirname, "..", "..");

export interface RoleProcess {
  /** Everything the role printed on stderr so far. */
  output(): string;
  /** Resolves once the role printed `line` (rejects if it exits first). */
  printed(line: string): Promise<void>;
  /** SIGTERM, then resolves with the exit code once the process has exited. */
  stop(): Promise<number | null>;
  /** SIGKILL (a crash: nothing runs on the way out), then resolves once the process has exited. */
  kill(): Promise<number | null>;
}

/** Starts `entry` (a role's main.ts, relative to the repository) with `env` added to this process's. */
export function startRoleProcess(entry: string, env: Record<string, string>): RoleProcess {
  const child: ChildProcess = spawn(process.execPath, ["--enable-source-maps", compiledRole(entry)], {
    cwd: ROOT,
    env: { METRICS_PORT: "0", ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let output = "";
  const ended = (signal: NodeJS.Signals) =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once("exit", (code) => resolve(code));
      child.kill(signal);
    });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return {
    output: () => output,
    printed: (line) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (output.includes(line)) resolve();
        };
        check();
        child.stderr?.on("data", check);
        child.once("exit", (code) => reject(new Error(`${entry} exited with ${code}: ${output}`)));
      }),
    stop: () => ended("SIGTERM"),
    kill: () => ended("SIGKILL"),
  };
}

/** DATABASE_URL for a role that must use the test's schema (its search_path set at connect). */
export function roleDatabaseUrl(database: TestDatabase): string {
  const url = new URL(database.url);
  url.searchParams.set("options", `-c search_path=${database.schema}`);
  return url.toString();
}
