// Benchmarks measure servers in their own processes, so the load generator does not share their core:
// the suite forks itself with `--serve <mode>`; the child prints `{"url"}` on its first stdout line and
// exits when its stdin closes. BENCH_CPU_PROFILE=<dir> writes each server's V8 CPU profile there.
import { type ChildProcess, fork } from "node:child_process";
import { createInterface } from "node:readline";

export async function startChildServer(
  modulePath: string,
  mode: string,
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess }> {
  const profileDir = process.env.BENCH_CPU_PROFILE;
  const child = fork(modulePath, ["--serve", mode], {
    execArgv: [...process.execArgv, ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])],
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", (line) =>
      resolve((JSON.parse(line) as { url: string }).url),
    );
    child.once("exit", (code) => reject(new Error(`bench server ${mode} exited with ${code}`)));
  });
  return { url, child };
}

export async function stopChildServer(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.stdin?.end();
  });
}
