// `npm start` as a newcomer runs it, the embedded default (the embedded database, local chains, both indexers,
// the API and the worker), on a fresh DATA_DIR: the time to its start screen, then the keyless identity check
// through it at 32 connections, beside a bare node:http server answering a fixed JSON object (in a process of
// its own) in the same rounds: the ceiling of this load generator and node:http on this machine.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pool } from "undici";
import { npmStart, type RunningStart, signalGroup } from "../test/support/npmStart";
import type { Emit } from "./run";
import { bareStaticHandler } from "./support/bareStatic";
import {
  announceChildServer,
  listenOnFreePort,
  startChildServer,
  stopChildServer,
} from "./support/childServer";
import { closedLoop, combined, type Measurement } from "./support/closedLoop";
import { median, percentile } from "./support/stats";

const CONCURRENCY = 32;
const WARMUP_MS = 3_000;
const ROUNDS = 5;
const ROUND_MS = 2_000;

/** Checks of 5,000 different pairs (none is reserved in a fresh folder's production data): each one a read. */
function checks(pool: Pool) {
  return async (index: number) => {
    const name = encodeURIComponent(`Start Token ${index % 5_000}`);
    try {
      const response = await pool.request({
        method: "GET",
        path: `/api/v1/identity/check?name=${name}&ticker=ST${index % 97}`,
      });
      await response.body.dump();
      return response.statusCode;
    } catch {
      return 0;
    }
  };
}

function summary(measurements: readonly Measurement[]) {
  const { latencies, seconds, errors } = combined(measurements);
  return {
    throughput: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors,
  };
}

export async function run(emit: Emit): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-start-"));
  const bare = await startChildServer(__filename, "bare-static", {});
  let started: RunningStart | undefined;
  try {
    const began = performance.now();
    started = await npmStart({
      DATA_DIR: dataDir,
      PORT: "0",
      METRICS_PORT: "0",
      EMBEDDED_DB_PORT: "0",
      LOCAL_EVM_PORT: "0",
      LOCAL_SOLANA_PORT: "0",
      LOG_LEVEL: "warn",
      // One load generator is one client: the keyless limit is set out of its reach.
      KEYLESS_RATE_LIMIT_PER_MINUTE: "1000000",
    });
    const seconds = (performance.now() - began) / 1000;
    process.stderr.write(`start bench: npm start printed its screen after ${seconds.toFixed(1)} s\n`);
    emit("start.seconds_to_screen", Number(seconds.toFixed(2)), "s");
    const servers = [
      { name: "check", pool: new Pool(started.apiUrl, { connections: CONCURRENCY }) },
      { name: "bare-static", pool: new Pool(bare.url, { connections: CONCURRENCY }) },
    ];
    for (const server of servers) await closedLoop(checks(server.pool), WARMUP_MS, CONCURRENCY);
    const rounds = new Map<string, Measurement[]>(servers.map((server) => [server.name, []]));
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const rates = new Map<string, number>();
      for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
        const measurement = await closedLoop(checks(server.pool), ROUND_MS, CONCURRENCY);
        rounds.get(server.name)?.push(measurement);
        rates.set(server.name, measurement.latencies.length / measurement.seconds);
      }
      ratios.push((rates.get("check") ?? 0) / (rates.get("bare-static") ?? 1));
    }
    for (const server of servers) {
      const result = summary(rounds.get(server.name) ?? []);
      process.stderr.write(
        `${server.name.padEnd(12)} ${result.throughput.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms  non-200 ${result.errors}\n`,
      );
      emit(`${server.name}.throughput`, Math.round(result.throughput), "req/s");
      emit(`${server.name}.p50`, Number(result.p50.toFixed(3)), "ms");
      emit(`${server.name}.p99`, Number(result.p99.toFixed(3)), "ms");
      emit(`${server.name}.non_200`, result.errors, "responses");
      await server.pool.close();
    }
    emit("check_to_bare_static_ratio", Number(median(ratios).toFixed(3)), "ratio");
  } finally {
    // Ctrl-C, as a terminal sends it.
    if (started !== undefined) await signalGroup(started, "SIGINT");
    await stopChildServer(bare.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Child-process side: the bare server, on a free port; prints its URL and exits when stdin closes. */
async function serveBareStatic(): Promise<void> {
  announceChildServer(await listenOnFreePort(createServer(bareStaticHandler)));
}

if (process.argv[2] === "--serve") void serveBareStatic();
