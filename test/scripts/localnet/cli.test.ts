// `npm run localnet` as a user runs it: prints where everything is, writes the manifest, and stops
// every chain on Ctrl-C (SIGINT) with exit code 0.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "chai";
import { collectOutput } from "../../support/childOutput";

const REPO_ROOT = resolve(__dirname, "../../..");

function runCli(args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/localnet/main.ts", ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return { child, exited, output };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the CLI");
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe("npm run localnet (CLI)", function () {
  this.timeout(120_000);

  it("prints the endpoints, writes the manifest and stops cleanly on Ctrl-C", async () => {
    const manifest = join(mkdtempSync(join(tmpdir(), "localnet-cli-")), "local.json");
    const cli = runCli(["--evm-port", "0", "--solana-port", "0", "--slot-ms", "100", "--manifest", manifest]);
    await until(
      () => cli.output().stdout.includes("Local chains are running") || cli.child.exitCode !== null,
      90_000,
    );
    const written = JSON.parse(readFileSync(manifest, "utf8"));
    const { stdout } = cli.output();
    expect(stdout).to.contain(written.solana[0].rpcUrl).and.to.contain(written.evm[0].registry);
    expect(stdout).to.contain(written.solana[0].programId);

    cli.child.kill("SIGINT");
    expect(await cli.exited).to.equal(0);
    const slot = await fetch(written.solana[0].rpcUrl, { method: "POST", body: "{}" }).catch((e: Error) => e);
    expect(slot).to.be.instanceOf(Error);
  });

  it("refuses a taken port with a message naming it and the option to change", async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, "127.0.0.1", done));
    const port = (blocker.address() as { port: number }).port;
    try {
      const cli = runCli(["--evm-port", String(port), "--solana-port", "0"]);
      expect(await cli.exited).to.equal(1);
      expect(cli.output().stderr)
        .to.contain(`Port ${port} (Hardhat node) is already in use`)
        .and.to.contain("--evm-port");
    } finally {
      blocker.close();
    }
  });

  it("rejects a malformed port option before starting anything", async () => {
    const cli = runCli(["--solana-port", "eighty"]);
    expect(await cli.exited).to.equal(1);
    expect(cli.output().stderr).to.contain(
      '--solana-port must be a port number from 0 to 65535, got "eighty"',
    );
  });
});
