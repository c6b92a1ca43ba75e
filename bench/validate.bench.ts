// Launch validation throughput and latency: POST /api/v1/launches/validate through the whole app (partner
// key auth with its Postgres rate count and the identity's snapshot in one statement, validation, fold,
// status engine, Ed25519 signing, one audit + outbox statement), beside a bare node:http server that signs the same canonical
// bytes with the same key in the same run. Each server runs in its own process; the load generator runs
// here (undici, the leanest Node client: the CPU it takes is CPU both servers lose on a small machine).
// Then latency at half of the measured maximum rate (open loop, after settling), the figure the goal is set on. Each round
// also reports where a validation's CPU goes (server, database and load generator, per request) and how many
// database statements it took (the batches' share: a statement's fixed cost is far above a row's). Last, the
// record phase: the recorder's statement beside a history of VALIDATE_RECORD_HISTORY decisions (default 10^6),
// with the service's request ids against random ones (support/recordBesideHistory.ts).
//
// Database: DATABASE_URL (a fresh schema, dropped afterwards). Without it: postgres://postgres@127.0.0.1/test.
import type { ChildProcess } from "node:child_process";
import { randomBytes, sign } from "node:crypto";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import type { Histogram } from "prom-client";
import { Pool as HttpPool } from "undici";
import { createApp } from "../api/app";
import { applyApiHeapPolicy } from "../api/heapPolicy";
import { canonicalDecisionBytes, DECISION_LIFETIME_SECONDS, DECISION_VERSION } from "../core/decision";
import { normalizeIdentity } from "../core/fold";
import { openSigningKey } from "../core/keyring";
import { createSecretBox } from "../core/secrets/secretBox";
import { ensureSigningKeys, listSigningKeys } from "../services/signing/signingKeyStore";
import { type Database, openDatabase, quoteIdentifier } from "../storage/database";
import { createLogger } from "../telemetry/log";
import { metricsRegistry } from "../telemetry/metrics";
import type { Emit } from "./run";
import {
  announceChildServer,
  listenOnFreePort,
  startChildServer,
  stopChildServer,
} from "./support/childServer";
import { closedLoop } from "./support/closedLoop";
import { openLoop, slipShare } from "./support/openLoop";
import { postgresCpu, postgresCpuMicrosPerRequest } from "./support/postgresCpu";
import { recordBesideHistory } from "./support/recordBesideHistory";
import { median, percentile } from "./support/stats";
import { VALIDATE_CONNECTION_LEVELS, VALIDATE_MAX_CONNECTIONS } from "./support/validateLevels";
import { validationKeys } from "./support/validationKeys";

const CHAINS = [{ chain: "hardhat", family: "evm" as const }];
/** In flight during warm-up. */
const WARM_CONNECTIONS = 32;
const WARMUP_MS = 5_000;
// Rounds alternate api and bare and each figure is the median of the rounds: on a shared machine a
// neighbour's burst spoils one short pair of rounds instead of a long measurement, so several short pairs
// (2 s each, ~4,000 requests) give steadier medians than three long ones.
const ROUNDS = 5;
const MEASURE_MS = 2_000;
const RATE_MS = 5_000;
// The max rounds leave Postgres a backlog to write back (tens of thousands of rows, their WAL and dirty
// pages); for a few seconds after them a WAL fsync can stall ~100 ms on a cloud disk. Latency at half rate
// is a steady-state figure, so the load runs at that rate for this long first; the p99 of that settling
// window is reported on its own (`*_p99_settling`), not dropped.
const SETTLE_MS = 5_000;
/** Production keys are limited to 2000 requests a minute each; the load spreads over enough keys. */
const API_KEYS = 100;
const LAUNCHER = "0x1111111111111111111111111111111111111111";
const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/test";
/** Decisions already recorded when the record phase measures the record statement (VALIDATE_RECORD_HISTORY). */
const RECORD_HISTORY = Number(process.env.VALIDATE_RECORD_HISTORY ?? 1_000_000);

type ServerMode = "api" | "bare";

function body(index: number): string {
  return JSON.stringify({
    chain: "hardhat",
    name: `Bench Launch ${index % 5000}`,
    ticker: `BL${index % 89}`,
    launcher: LAUNCHER,
  });
}

interface Client {
  send(index: number): Promise<number>;
  close(): void;
}

function client(baseUrl: string, keys: readonly string[]): Client {
  const pool = new HttpPool(baseUrl, { connections: VALIDATE_MAX_CONNECTIONS });
  return {
    send: async (index) => {
      try {
        const response = await pool.request({
          method: "POST",
          path: "/api/v1/launches/validate",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${keys[index % keys.length]}`,
          },
          body: body(index),
        });
        await response.body.dump();
        return response.statusCode;
      } catch {
        return 0;
      }
    },
    close: () => void pool.close(),
  };
}

/** Child-process side: serve one mode on a free port and print its URL. */
async function serve(mode: ServerMode): Promise<void> {
  // Every server here, the baselines too, runs with the heap policy `serveApi` applies to the API.
  applyApiHeapPolicy();
  const { BENCH_DB_URL, BENCH_DB_SCHEMA, BENCH_MASTER_KEY } = process.env;
  if (!BENCH_DB_URL || !BENCH_DB_SCHEMA || !BENCH_MASTER_KEY)
    throw new Error("BENCH_DB_URL, BENCH_DB_SCHEMA and BENCH_MASTER_KEY are required");
  const masterKey = Buffer.from(BENCH_MASTER_KEY, "hex");
  const database = await openDatabase({ kind: "postgres", url: BENCH_DB_URL, schema: BENCH_DB_SCHEMA });
  const server =
    mode === "api"
      ? createServer(
          createApp({
            pool: database.pool,
            startedAt: new Date(),
            log: createLogger({ level: "warn" }),
            masterKey,
            decisions: { chains: CHAINS },
          }),
        )
      : await bareSigningServer(database, masterKey);
  // The event loop's busy share between two asks for the stages (the second ask gets the phase's).
  let loopSince = performance.eventLoopUtilization();
  // Statements sent: every pool.query checks a client out once, so this counts the batches' statements.
  let statements = 0;
  database.pool.on("acquire", () => {
    statements += 1;
  });
  const url = await listenOnFreePort(server);
  process.on("message", (message) => {
    if (message === "counters") process.send?.({ cpu: process.cpuUsage(), statements });
    if (message === "stages") {
      void stageTotals().then((totals) => {
        const now = performance.eventLoopUtilization();
        const cpu = process.cpuUsage();
        process.send?.({
          ...totals,
          loopBusy: performance.eventLoopUtilization(now, loopSince).utilization,
          cpuMs: (cpu.user + cpu.system) / 1000,
          atMs: performance.now(),
        });
        loopSince = now;
      });
    }
  });
  announceChildServer(url);
}

/** Sums and counts of a histogram's series, as the metrics registry holds them so far. */
interface Totals {
  count: number;
  sum: number;
}

/** What validation's time went to so far, from the API's own metrics (telemetry/metrics.ts). */
interface StageTotals {
  /** The validate route's answered requests and their seconds in the server. */
  requests: Totals;
  admission: { held: Totals; run: Totals; calls: Totals };
  record: { held: Totals; run: Totals; calls: Totals };
  /** The share of the time since the previous ask that the event loop was busy (eventLoopUtilization). */
  loopBusy: number;
  /** The process's CPU so far (user and system, every thread) and the time it was read. */
  cpuMs: number;
  atMs: number;
}

/** Child side: the totals of the metrics that split a validation's time in the server. */
async function stageTotals(): Promise<Omit<StageTotals, "loopBusy" | "cpuMs" | "atMs">> {
  const read = async (name: string) =>
    [
      name,
      (await (metricsRegistry.getSingleMetric(name) as Histogram | undefined)?.get())?.values ?? [],
    ] as const;
  const metrics = new Map(
    await Promise.all(
      [
        "database_batch_held_seconds",
        "database_batch_duration_seconds",
        "database_batch_size",
        "http_request_duration_seconds",
      ].map(read),
    ),
  );
  const totals = (name: string, labels: Record<string, string>): Totals => {
    const values = metrics.get(name) ?? [];
    const matching = (value: (typeof values)[number]) =>
      Object.entries(labels).every(([label, wanted]) => value.labels[label] === wanted);
    const sumOf = (suffix: string) =>
      values
        .filter((value) => value.metricName === `${name}${suffix}` && matching(value))
        .reduce((total, value) => total + value.value, 0);
    return { count: sumOf("_count"), sum: sumOf("_sum") };
  };
  const stage = (statement: string) => ({
    held: totals("database_batch_held_seconds", { statement }),
    run: totals("database_batch_duration_seconds", { statement }),
    calls: totals("database_batch_size", { statement }),
  });
  return {
    requests: totals("http_request_duration_seconds", { route: "POST /api/v1/launches/validate" }),
    admission: stage("decisions.admitted_snapshots"),
    record: stage("decisions.record"),
  };
}

/** The API child's stage totals so far, asked over the fork's IPC channel. */
function serverStages(child: ChildProcess): Promise<StageTotals> {
  return new Promise((resolve) => {
    child.once("message", (totals: StageTotals) => resolve(totals));
    child.send("stages");
  });
}

/** Mean milliseconds of `after - before`, or NaN when nothing was observed between them. */
const meanMs = (before: Totals, after: Totals) =>
  ((after.sum - before.sum) * 1000) / (after.count - before.count);

interface ServerCounters {
  /** CPU seconds (user + system) used so far. */
  cpuSeconds: number;
  /** Database statements sent so far. */
  statements: number;
}

/** The server process's counters so far, asked over the fork's IPC channel. */
function serverCounters(child: ChildProcess): Promise<ServerCounters> {
  return new Promise((resolve) => {
    child.once("message", (counters: { cpu: NodeJS.CpuUsage; statements: number }) =>
      resolve({
        cpuSeconds: (counters.cpu.user + counters.cpu.system) / 1e6,
        statements: counters.statements,
      }),
    );
    child.send("counters");
  });
}

/** The baseline: read the JSON body, fold, build the canonical decision and sign it with the same key. */
async function bareSigningServer(database: Database, masterKey: Buffer) {
  const active = (await listSigningKeys(database.pool)).find(
    (key) => key.environment === "production" && key.status === "active",
  );
  if (active === undefined) throw new Error("no active production key");
  const { rows } = await database.pool.query<{ private_key_encrypted: string }>(
    "SELECT private_key_encrypted FROM signing_keys WHERE kid = $1",
    [active.kid],
  );
  const key = openSigningKey(
    createSecretBox(masterKey),
    active,
    (rows[0] as { private_key_encrypted: string }).private_key_encrypted,
  );
  let counter = 0;
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const input = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        chain: string;
        name: string;
        ticker: string;
        launcher: string;
      };
      const identity = normalizeIdentity(input.name, input.ticker);
      const issuedAt = new Date();
      counter += 1;
      const fields = {
        version: DECISION_VERSION,
        requestId: `dec_bare_${counter}`,
        identityKey: identity.identityKey,
        normalizedName: identity.normalizedName,
        normalizedTicker: identity.normalizedTicker,
        chain: input.chain,
        launchpadId: "bench",
        launcher: input.launcher,
        decision: "allow" as const,
        reason: "no_conflict",
        issuedAt: issuedAt.toISOString(),
        expiresAt: new Date(issuedAt.getTime() + DECISION_LIFETIME_SECONDS * 1000).toISOString(),
      };
      const signature = sign(null, canonicalDecisionBytes(fields), key.privateKey).toString("base64");
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          ...fields,
          environment: "production",
          signature,
          signatureAlg: "ed25519",
          keyId: key.kid,
        }),
      );
    });
  });
}

interface Server {
  mode: ServerMode;
  child: ChildProcess;
  target: Client;
}

interface Latency {
  rate: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  settlingP99Ms: number;
  /** The share of the measured phase the load generator's schedule slipped (openLoop.ts). */
  slipShare: number;
  /** Where the API's time went over the measured phase (the API only). */
  split?: StageSplit;
}

/** Means over a phase, from the API's metrics: a request's time in the server and its batches' parts. */
interface StageSplit {
  serverMs: number;
  /** The share of the phase the API's event loop was busy: running, or waiting for a core while not idle. */
  loopBusy: number;
  /** The API process's CPU over the phase, in cores (every thread: the main one, GC, libuv). */
  cores: number;
  admission: BatchSplit;
  record: BatchSplit;
}

interface BatchSplit {
  /** Mean time a batch's first call was held before its statement went out. */
  heldMs: number;
  /** Mean round trip of the statement. */
  statementMs: number;
  callsPerBatch: number;
}

function stageSplit(before: StageTotals, after: StageTotals): StageSplit {
  const batch = (stage: "admission" | "record"): BatchSplit => ({
    heldMs: meanMs(before[stage].held, after[stage].held),
    statementMs: meanMs(before[stage].run, after[stage].run),
    callsPerBatch:
      (after[stage].calls.sum - before[stage].calls.sum) /
      (after[stage].calls.count - before[stage].calls.count),
  });
  return {
    serverMs: meanMs(before.requests, after.requests),
    loopBusy: after.loopBusy,
    cores: (after.cpuMs - before.cpuMs) / (after.atMs - before.atMs),
    admission: batch("admission"),
    record: batch("record"),
  };
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Latency at a fixed rate (open loop), measured after settling at that rate. */
async function latencyAt(server: Server, rate: number): Promise<Latency> {
  const settling = await openLoop(server.target.send, rate, SETTLE_MS, 1_000_000);
  const stagesBefore = server.mode === "api" ? await serverStages(server.child) : undefined;
  const sample = await openLoop(server.target.send, rate, RATE_MS, 1_000_000);
  const split =
    stagesBefore === undefined ? undefined : stageSplit(stagesBefore, await serverStages(server.child));
  return {
    split,
    rate,
    p50Ms: percentile(sample.latencies, 0.5),
    p99Ms: percentile(sample.latencies, 0.99),
    errors: sample.errors + settling.errors,
    settlingP99Ms: percentile(settling.latencies, 0.99),
    slipShare: slipShare([sample]),
  };
}

async function prepare(database: Database, masterKey: Buffer): Promise<string[]> {
  await ensureSigningKeys(database.pool, createSecretBox(masterKey));
  await database.pool.query(
    `INSERT INTO chain_checkpoints (chain, family, head_number, head_seen_at, indexed_number, indexed_block_time, indexed_at)
     VALUES ('hardhat', 'evm', 1000, now(), 1000, now(), now())`,
  );
  // Every tenth identity is reserved for another wallet, so blocks (with their outbox events) are in the mix.
  for (let index = 0; index < 5000; index += 10) {
    const identity = normalizeIdentity(`Bench Launch ${index}`, `BL${index % 89}`);
    await database.pool.query(
      `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher, reserved_at,
         expires_at, duration_seconds, fee_paid, tx_hash, block_number)
       VALUES ('hardhat', $1, $2, $3, $4, '0x2222222222222222222222222222222222222222', now(), now() + interval '1 day', 86400, 0, '0x00', 1)
       ON CONFLICT DO NOTHING`,
      [identity.nameHash, identity.tickerHash, identity.normalizedName, identity.normalizedTicker],
    );
  }
  const keys = await validationKeys(database.pool, API_KEYS);
  // A running database has planner statistics; a fresh schema gets them only when autovacuum comes by.
  await database.pool.query("ANALYZE");
  return keys;
}

export async function run(emit: Emit): Promise<void> {
  const url = process.env.DATABASE_URL ?? DEFAULT_URL;
  const schema = `bench_validate_${randomBytes(4).toString("hex")}`;
  const database = await openDatabase({ kind: "postgres", url, schema });
  const masterKey = randomBytes(32);
  process.stderr.write(
    `validate bench on Postgres (${process.env.DATABASE_URL ? "DATABASE_URL" : DEFAULT_URL}), ${VALIDATE_CONNECTION_LEVELS.join(", ")} connections\n`,
  );
  try {
    const keys = await prepare(database, masterKey);
    const env = { BENCH_DB_URL: url, BENCH_DB_SCHEMA: schema, BENCH_MASTER_KEY: masterKey.toString("hex") };
    // The mirror must stay within its freshness bound, as a running indexer keeps it.
    const refresh = async () => {
      await database.pool.query("UPDATE chain_checkpoints SET indexed_at = now(), head_seen_at = now()");
    };
    // Both servers run side by side and are loaded in alternating rounds, so a busy neighbour on the
    // machine weighs on both; each figure is the median of the rounds.
    const servers: Server[] = [];
    for (const mode of ["api", "bare"] as const) {
      const { url: serverUrl, child } = await startChildServer(__filename, mode, env);
      servers.push({ mode, child, target: client(serverUrl, keys) });
    }
    const [api, bare] = servers as [Server, Server];
    try {
      for (const server of servers) await closedLoop(server.target.send, WARMUP_MS, WARM_CONNECTIONS);
      const rates: Record<ServerMode, number[]> = { api: [], bare: [] };
      // Server CPU per request: steadier than req/s when neighbours come and go, and it shows where a
      // validation's cost is (the database's share is not in it).
      const cpuPerRequest: Record<ServerMode, number[]> = { api: [], bare: [] };
      const databaseCpuPerRequest: number[] = [];
      const clientCpuPerRequest: number[] = [];
      // Statements per validation: how well concurrent validations share their statements at the maximum.
      const statementsPerRequest: number[] = [];
      let errorsAtMax = 0;
      const loadBefore = loadavg()[0] as number;
      const connectionsUsed: Record<ServerMode, number[]> = { api: [], bare: [] };
      /** One closed-loop sample of `server` with its CPU split: server, database, load generator. */
      const measure = async (server: Server, connections: number) => {
        const before = await serverCounters(server.child);
        const databaseBefore = postgresCpu();
        const clientBefore = process.cpuUsage();
        const sample = await closedLoop(server.target.send, MEASURE_MS, connections);
        const after = await serverCounters(server.child);
        const databaseAfter = postgresCpu();
        const client = process.cpuUsage(clientBefore);
        const requests = sample.latencies.length;
        return {
          connections,
          errors: sample.errors,
          rate: requests / sample.seconds,
          cpu: ((after.cpuSeconds - before.cpuSeconds) * 1e6) / requests,
          statements: (after.statements - before.statements) / requests,
          client: (client.user + client.system) / requests,
          database: postgresCpuMicrosPerRequest(databaseBefore, databaseAfter, requests),
        };
      };
      for (let round = 0; round < ROUNDS; round += 1) {
        await refresh();
        for (const server of servers) {
          const samples = [];
          for (const connections of VALIDATE_CONNECTION_LEVELS)
            samples.push(await measure(server, connections));
          const best = samples.reduce((left, right) => (right.rate > left.rate ? right : left));
          rates[server.mode].push(best.rate);
          cpuPerRequest[server.mode].push(best.cpu);
          connectionsUsed[server.mode].push(best.connections);
          if (server.mode === "api") {
            errorsAtMax += samples.reduce((sum, sample) => sum + sample.errors, 0);
            clientCpuPerRequest.push(best.client);
            statementsPerRequest.push(best.statements);
            if (best.database !== undefined) databaseCpuPerRequest.push(best.database);
          }
        }
        const ratio = (rates.api[round] as number) / (rates.bare[round] as number);
        process.stderr.write(
          `round ${round + 1}: validate ${Math.round(rates.api[round] as number)} req/s at ${connectionsUsed.api[round]} connections (CPU each: server ${Math.round(cpuPerRequest.api[round] as number)} µs, database ${Math.round(databaseCpuPerRequest[round] ?? Number.NaN)} µs, load generator ${Math.round(clientCpuPerRequest[round] as number)} µs; ${(statementsPerRequest[round] as number).toFixed(2)} statements each), bare signer ${Math.round(rates.bare[round] as number)} req/s at ${connectionsUsed.bare[round]} (${Math.round(cpuPerRequest.bare[round] as number)} µs), ratio ${ratio.toFixed(3)}\n`,
        );
      }
      const apiMax = median(rates.api);
      const bareMax = median(rates.bare);
      await refresh();
      const apiHalf = await latencyAt(api, Math.round(apiMax / 2));
      const bareHalf = await latencyAt(bare, Math.round(bareMax / 2));
      for (const [label, latency] of [
        ["validate", apiHalf],
        ["bare signer", bareHalf],
      ] as const) {
        process.stderr.write(
          `${label} at ${latency.rate} req/s: p50 ${latency.p50Ms.toFixed(2)} ms, p99 ${latency.p99Ms.toFixed(2)} ms (p99 while settling ${latency.settlingP99Ms.toFixed(2)} ms; ${latency.errors} errors; the generator's schedule slipped ${(latency.slipShare * 100).toFixed(2)}%)\n`,
        );
      }
      const split = apiHalf.split;
      if (split !== undefined) {
        const part = (label: string, batch: BatchSplit) =>
          `${label} held ${batch.heldMs.toFixed(2)} ms + statement ${batch.statementMs.toFixed(2)} ms (${batch.callsPerBatch.toFixed(1)} calls a batch)`;
        process.stderr.write(
          `validate at half rate, means from the API's metrics: ${split.serverMs.toFixed(2)} ms in the server; ${part("admission", split.admission)}; ${part("record", split.record)}; the event loop busy ${(split.loopBusy * 100).toFixed(0)}% of the time, the process's CPU ${split.cores.toFixed(2)} cores\n`,
        );
        emit("validate_server_mean_at_half_rate", round2(split.serverMs), "ms");
        emit("validate_event_loop_busy_at_half_rate", round2(split.loopBusy), "share");
        emit("validate_server_cores_at_half_rate", round2(split.cores), "cores");
        for (const stage of ["admission", "record"] as const) {
          emit(`validate_${stage}_held_mean_at_half_rate`, round2(split[stage].heldMs), "ms");
          emit(`validate_${stage}_statement_mean_at_half_rate`, round2(split[stage].statementMs), "ms");
          emit(`validate_${stage}_calls_per_batch_at_half_rate`, round2(split[stage].callsPerBatch), "calls");
        }
      }
      emit("validate_max_throughput", Math.round(apiMax), "req/s");
      emit("validate_errors_at_max", errorsAtMax, "requests");
      emit("bare_sign_max_throughput", Math.round(bareMax), "req/s");
      emit(
        "validate_to_bare_ratio",
        Math.round(median(rates.api.map((rate, index) => rate / (rates.bare[index] as number))) * 1000) /
          1000,
        "ratio",
      );
      emit("validate_server_cpu_per_request", Math.round(median(cpuPerRequest.api)), "µs");
      emit("bare_server_cpu_per_request", Math.round(median(cpuPerRequest.bare)), "µs");
      if (databaseCpuPerRequest.length > 0)
        emit("validate_database_cpu_per_request", Math.round(median(databaseCpuPerRequest)), "µs");
      emit("validate_load_generator_cpu_per_request", Math.round(median(clientCpuPerRequest)), "µs");
      emit(
        "validate_statements_per_request",
        Math.round(median(statementsPerRequest) * 1000) / 1000,
        "statements",
      );
      emit("load_average_before", Math.round(loadBefore * 100) / 100, "load");
      emit("validate_half_rate", apiHalf.rate, "req/s");
      emit("validate_p50_at_half_rate", Math.round(apiHalf.p50Ms * 100) / 100, "ms");
      emit("validate_p99_at_half_rate", Math.round(apiHalf.p99Ms * 100) / 100, "ms");
      emit("validate_p99_settling", Math.round(apiHalf.settlingP99Ms * 100) / 100, "ms");
      emit("validate_errors_at_half_rate", apiHalf.errors, "requests");
      emit("validate_generator_slip_at_half_rate", Math.round(apiHalf.slipShare * 10000) / 10000, "share");
      emit("bare_p50_at_half_rate", Math.round(bareHalf.p50Ms * 100) / 100, "ms");
      emit("bare_p99_at_half_rate", Math.round(bareHalf.p99Ms * 100) / 100, "ms");
      emit("bare_p99_settling", Math.round(bareHalf.settlingP99Ms * 100) / 100, "ms");
    } finally {
      for (const server of servers) {
        server.target.close();
        await stopChildServer(server.child);
      }
    }
    const { rows } = await database.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM decisions");
    emit("decisions_recorded", rows[0]?.n ?? 0, "rows");
    const record = await recordBesideHistory(url, RECORD_HISTORY);
    for (const [suffix, figures] of [
      ["", record.service],
      ["_random_ids", record.random],
    ] as const) {
      if (figures.databaseCpuPerRow !== undefined)
        emit(
          `decision_record_database_cpu_per_row${suffix}`,
          Math.round(figures.databaseCpuPerRow * 10) / 10,
          "µs",
        );
      emit(`decision_record_wal_bytes_per_row${suffix}`, Math.round(figures.walBytesPerRow), "bytes");
    }
    emit("decision_record_history_rows", RECORD_HISTORY, "rows");
  } finally {
    await database.pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`);
    await database.close();
  }
}

if (process.argv[2] === "--serve") {
  serve(process.argv[3] as ServerMode).catch((error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  });
}
