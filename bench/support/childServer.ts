// Benchmarks measure servers in their own processes, so the load generator does not share their core:
// the suite forks itself with `--serve <mode>`; the child prints `{"url"}` on its first stdout line and
// exits when its stdin closes (both sides of that are here). The child runs the suite compiled as the roles
// are (scripts/build/roles.ts), so a bench measures the code production runs, not tsx's.
// BENCH_CPU_PROFILE=<dir> writes each server's V8 CPU profile there.
import { type ChildProcess, fork } from "node:child_process";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import { buildSync } from "esbuild";
import { projectPath } from "../../config/projectRoot";
import { NODE_BUNDLE, THREAD_ENTRY_POINTS } from "../../scripts/build/roles";

const compiled = new Map<string, string>();

/** The suite module bundled into dist/bench/ (once per process). */
function compiledSuite(modulePath: string): string {
  let bundle = compiled.get(modulePath);
  if (bundle === undefined) {
    const name = basename(modulePath).replace(/\.ts$/, "");
    buildSync({
      ...NODE_BUNDLE,
      entryPoints: { [name]: modulePath, ...THREAD_ENTRY_POINTS },
      outdir: projectPath("dist", "bench"),
    });
    bundle = projectPath("dist", "bench", `${name}.js`);
    compiled.set(modulePath, bundle);
  }
  return bundle;
}

export async function startChildServer(
  modulePath: string,
  mode: string,
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess }> {
  const profileDir = process.env.BENCH_CPU_PROFILE;
  const child = fork(compiledSuite(modulePath), ["--serve", mode], {
    execArgv: ["--enable-source-maps", ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])],
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

/** `server` listening on a free loopback port (a child's, or a baseline's in the suite); resolves to its URL. */
export async function listenOnFreePort(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Child side: tells the parent `url`, then runs `close` and exits when the parent closes stdin. */
export function announceChildServer(url: string, close: () => Promise<void> = async () => {}): void {
  process.stdout.write(`${JSON.stringify({ url })}\n`);
  process.stdin.on("end", () => void close().finally(() => process.exit(0)));
  process.stdin.resume();
}
