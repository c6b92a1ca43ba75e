// A Hardhat node as a child process: started, waited for until it answers JSON-RPC, stopped cleanly.
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { assertPortFree, freePort } from "../../../net/ports";
import { ChainStartError } from "../errors";

export interface HardhatNodeOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The chain id it reports (default Hardhat's 31337); a second local chain needs another, e.g. 1337. */
  chainId?: number;
  startTimeoutMs?: number;
}

export interface HardhatNode {
  rpcUrl: string;
  /** The node's websocket (same port as HTTP): eth_subscribe("newHeads") announces each mined block. */
  wsUrl: string;
  chainId: number;
  pid: number;
  /** Resolves with the exit code when the node process ends, for whatever reason. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

const REPO_ROOT = resolve(__dirname, "../../..");
const NODE_CONFIG = resolve(REPO_ROOT, "scripts/localnet/evm/hardhatNode.config.js");
const OUTPUT_LINES_KEPT = 40;
const STOP_GRACE_MS = 5_000;

async function chainIdAt(rpcUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    const body = (await response.json()) as { result?: string };
    return body.result ? Number(body.result) : undefined;
  } catch {
    return undefined;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once("exit", () => done());
  });
}

export async function startHardhatNode(options: HardhatNodeOptions = {}): Promise<HardhatNode> {
  const host = options.host ?? "127.0.0.1";
  const requested = options.port ?? 8545;
  if (requested !== 0) {
    await assertPortFree(host, {
      port: requested,
      service: "Hardhat node",
      setting: "--evm-port / LOCALNET_EVM_PORT",
    });
  }
  const port = requested === 0 ? await freePort(host) : requested;
  const child = spawn(
    process.execPath,
    [
      require.resolve("hardhat/internal/cli/cli.js"),
      "--config",
      NODE_CONFIG,
      "node",
      "--hostname",
      host,
      "--port",
      String(port),
    ],
    {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        HARDHAT_DISABLE_TELEMETRY_PROMPT: "true",
        ...(options.chainId === undefined ? {} : { HARDHAT_NODE_CHAIN_ID: String(options.chainId) }),
      },
    },
  );
  // Hardhat logs every call; keep only the tail, for the error message when it fails to start.
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString().split("\n").filter(Boolean));
    output.splice(0, Math.max(0, output.length - OUTPUT_LINES_KEPT));
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const done = exited(child);
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    await done;
    clearTimeout(timer);
  };

  const rpcUrl = `http://${host}:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new ChainStartError(
        `The Hardhat node exited with code ${child.exitCode} before answering:\n${output.join("\n")}`,
      );
    }
    const chainId = await chainIdAt(rpcUrl);
    if (chainId !== undefined) {
      const exitCode = exited(child).then(() => child.exitCode);
      const wsUrl = `ws://${host}:${port}`;
      return { rpcUrl, wsUrl, chainId, pid: child.pid as number, exited: exitCode, stop };
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  await stop();
  throw new ChainStartError(
    `The Hardhat node did not answer at ${rpcUrl} within the start timeout:\n${output.join("\n")}`,
  );
}
