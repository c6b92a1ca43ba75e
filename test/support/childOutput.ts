// What a spawned child process prints, gathered as it arrives.
import type { ChildProcess } from "node:child_process";

export interface ChildOutput {
  stdout: string;
  stderr: string;
}

/** Gathers a piped child's stdout and stderr from now on; the result reads what has arrived so far. */
export function collectOutput(child: ChildProcess): () => ChildOutput {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  return () => ({ stdout, stderr });
}
