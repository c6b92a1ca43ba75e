// Latency of the local Solana JSON-RPC per method (p50/p99 over keep-alive HTTP), beside a bare
// node:http JSON-RPC answer measured the same way (the floor of any HTTP RPC here), send-and-confirm
// through web3.js over the websocket, and the start-up time of the full localnet.
import { createServer } from "node:http";
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
} from "@solana/web3.js";
import { startLocalnet } from "../scripts/localnet";
import { startSolanaRpc } from "../scripts/localnet/solana/server";
import type { Emit } from "./run";
import { listenOnFreePort } from "./support/childServer";
import { percentile } from "./support/stats";

const CALLS = 400;
const WARMUP_CALLS = 50;
const CONFIRM_CALLS = 100;

async function latencies(calls: number, call: (index: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP_CALLS; i++) await call(i);
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await call(i);
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

function report(emit: Emit, metric: string, sorted: number[]): void {
  const p50 = percentile(sorted, 0.5);
  const p99 = percentile(sorted, 0.99);
  emit(`${metric}_p50`, Number(p50.toFixed(3)), "ms");
  emit(`${metric}_p99`, Number(p99.toFixed(3)), "ms");
  console.error(
    `${metric.padEnd(36)} p50 ${p50.toFixed(2).padStart(7)} ms   p99 ${p99.toFixed(2).padStart(7)} ms`,
  );
}

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function bareHttpBaseline(emit: Emit): Promise<number> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"jsonrpc":"2.0","result":"ok","id":1}');
    });
  });
  const url = await listenOnFreePort(server);
  const samples = await latencies(CALLS, () => rpc(url, "getHealth", []));
  report(emit, "baseline_bare_http", samples);
  server.closeAllConnections();
  server.close();
  return percentile(samples, 0.5);
}

async function solanaMethods(emit: Emit, baselineP50: number): Promise<void> {
  const node = await startSolanaRpc({ port: 0 });
  const connection = new Connection(node.rpcUrl, { commitment: "confirmed", wsEndpoint: node.wsUrl });
  const payer = Keypair.generate();
  node.chain.airdrop(payer.publicKey.toBase58(), 1_000n * BigInt(LAMPORTS_PER_SOL));
  const recipient = Keypair.generate().publicKey;
  const transfer = (lamports: number) =>
    new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports }),
    );
  const signed = async (lamports: number) => {
    const tx = transfer(lamports);
    tx.recentBlockhash = node.chain.ledger.head.blockhash;
    tx.feePayer = payer.publicKey;
    tx.sign(payer);
    return tx.serialize().toString("base64");
  };

  const confirmed = await latencies(CONFIRM_CALLS, (i) =>
    sendAndConfirmTransaction(connection, transfer(1_000_000 + i), [payer]),
  );
  report(emit, "web3_send_and_confirm", confirmed);

  const address = payer.publicKey.toBase58();
  const [someSignature] = (await connection.getSignaturesForAddress(payer.publicKey, { limit: 1 })).map(
    (s) => s.signature,
  );
  const reads: [string, (i: number) => unknown[]][] = [
    ["getSlot", () => []],
    ["getLatestBlockhash", () => [{ commitment: "confirmed" }]],
    ["getBalance", () => [address]],
    ["getAccountInfo", () => [address, { encoding: "base64" }]],
    ["getMultipleAccounts", () => [[address, recipient.toBase58()], { encoding: "base64" }]],
    ["getSignaturesForAddress", () => [address, { limit: 100 }]],
    ["getTransaction", () => [someSignature, { encoding: "json", maxSupportedTransactionVersion: 0 }]],
    [
      "getProgramAccounts",
      () => [SystemProgram.programId.toBase58(), { filters: [{ dataSize: 0 }], encoding: "base64" }],
    ],
  ];
  for (const [method, params] of reads) {
    const samples = await latencies(CALLS, (i) => rpc(node.rpcUrl, method, params(i)));
    report(emit, method, samples);
    emit(`${method}_p50_vs_bare_http`, Number((percentile(samples, 0.5) / baselineP50).toFixed(2)), "ratio");
  }
  const simulations = await Promise.all(
    Array.from({ length: CALLS + WARMUP_CALLS }, (_, i) => signed(2_000_000 + i)),
  );
  report(
    emit,
    "simulateTransaction",
    await latencies(CALLS, (i) =>
      rpc(node.rpcUrl, "simulateTransaction", [simulations[i], { encoding: "base64" }]),
    ),
  );
  const sends = await Promise.all(
    Array.from({ length: CALLS + WARMUP_CALLS }, (_, i) => signed(3_000_000 + i)),
  );
  let next = 0;
  report(
    emit,
    "sendTransaction",
    await latencies(CALLS, () =>
      rpc(node.rpcUrl, "sendTransaction", [sends[next++], { encoding: "base64" }]),
    ),
  );

  await new Promise((resolve) => setTimeout(resolve, 700)); // let web3.js close its idle websocket
  await node.stop();
}

async function startup(emit: Emit): Promise<void> {
  const started = performance.now();
  const localnet = await startLocalnet({ evmPort: 0, solanaPort: 0, manifestPath: null });
  const seconds = (performance.now() - started) / 1000;
  emit("localnet_start_both_registries_deployed", Number(seconds.toFixed(2)), "s");
  console.error(`${"localnet start (both deployed)".padEnd(36)} ${seconds.toFixed(2)} s`);
  await localnet.stop();
}

export async function run(emit: Emit): Promise<void> {
  const baselineP50 = await bareHttpBaseline(emit);
  await solanaMethods(emit, baselineP50);
  await startup(emit);
}
