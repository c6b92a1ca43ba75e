// Starts test/api/support/apiProcess.ts as a separate Node process and waits for its URL.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

export interface ChildApi {
  url: string;
  stop(): Promise<void>;
}

export async function startChildApi(env: {
  DB_URL: string;
  DB_SCHEMA: string;
  FIXED_NOW_MS?: string;
}): Promise<ChildApi> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", join(__dirname, "apiProcess.ts")], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once("line", (line) => resolve((JSON.parse(line) as { url: string }).url));
    child.once("exit", (code) => reject(new Error(`API child process exited with ${code} before listening`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.stdin?.end();
      }),
  };
}
