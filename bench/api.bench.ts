// API throughput and latency: GET /api/v1/identity/check through the full app (host routing, keyless
// rate counting in Postgres, validation, fold, read model, status function), beside two bare node:http
// servers measured in the same run: one doing the same identity check work without the request sequence, and
// one answering a static JSON object (the ceiling of node:http itself). Each server runs in its own process;
// the load generator runs here (undici, as in the validate bench: the CPU it takes is CPU the servers lose on
// a small machine) with one pool of keep-alive connections per server, kept across turns: a turn that opened
// its connections anew measured their set-up in its first ~100 ms (many of the requests over 20 ms at half
// rate on a 2-core machine), which a client of the check, keeping its connections, does not see.
//
// Then the look-alike case (docs/lookalikes.md) at 100,000 protected identities (98,000 more generated in
// SQL): the identity check as served (with the look-alike advisory) against the same steps without it (no
// look-alike key, so the statement without the look-alike read, named the same way as the check's), both on
// bare node:http so the advisory's share is the largest it can be. A third of the queries are Cyrillic
// copies of reserved pairs and get an advisory. Its figure is the median throughput ratio of back-to-back
// pairs of rounds, with each server's CPU per request beside it (the machine is shared: a neighbour's burst
// spoils one pair, not the figure).
// Last, a look-alike flood on the served check: 2,048 lapsed reservations sharing one look-alike key, asked in a
// third of the checks, against the plain mix.
//
// Database: DATABASE_URL when set (a fresh schema, dropped afterwards), else the embedded database.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pool } from "undici";
import { createApp } from "../api/app";
import { applyApiHeapPolicy } from "../api/heapPolicy";
import { foldedHash, foldV1 } from "../core/fold";
import { createSecretBox } from "../core/secrets/secretBox";
import { DEFAULT_FRESHNESS_BOUND_SECONDS } from "../core/status";
import { freePort } from "../net/ports";
import { createServices } from "../services";
import { chainReader, normalizedOrReject } from "../services/identity";
import { readStaleChains } from "../services/identity/chainReads";
import type { EvaluationContext } from "../services/identity/evaluation";
import { evaluate } from "../services/identity/evaluation";
import { checkIdentity, checkResultOf } from "../services/identity/identityCheck";
import { snapshotLoader } from "../services/identity/recordLoader";
import { ensureSigningKeys } from "../services/signing/signingKeyStore";
import { isPostgresServer } from "../storage/batchesInFlight";
import { type Database, openDatabase, quoteIdentifier } from "../storage/database";
import { createLogger } from "../telemetry/log";
import type { Emit } from "./run";
import { bareStaticHandler } from "./support/bareStatic";
import {
  announceChildServer,
  listenOnFreePort,
  startChildServer,
  stopChildServer,
} from "./support/childServer";
import { chosenCases } from "./support/chosenCases";
import { closedLoop, combined, type Measurement } from "./support/closedLoop";
import { type OpenLoopSample, openLoop as openLoopOf, type Send, slipShare } from "./support/openLoop";
import { postgresCpu, postgresCpuMicrosPerRequest } from "./support/postgresCpu";
import { median, percentile } from "./support/stats";
import { validationKeys } from "./support/validationKeys";

const CHAINS = [{ chain: "hardhat", family: "evm" as const }];
const CONCURRENCY = 32;
const WARMUP_MS = 1_500;
/** The machine is shared, so load drifts: the servers take turns in short rounds and each sees the same drift. */
const ROUNDS = 5;
const ROUND_MS = 2_000;
const MODES = ["bare-static", "bare-same-work", "service"] as const;
const RESERVATIONS = 2_000;
/** Keyless checks are counted per client as in production; the limit is set out of reach of one load generator. */
const UNREACHABLE_LIMIT = 1_000_000_000;
/** Production keys are limited to 2000 requests a minute each; the validations spread over enough keys. */
const API_KEYS = 100;
const LAUNCHER = "0x1111111111111111111111111111111111111111";

const LOOKALIKE_MODES = ["check-with-lookalikes", "check-without-lookalikes"] as const;
/** More, equally short rounds for the look-alike case: its figure is the median ratio of back-to-back pairs. */
const LOOKALIKE_ROUNDS = 10;
/** Protected identities in the look-alike case: RESERVATIONS seeded above plus generated ones. */
const PROTECTED_IDENTITIES = 100_000;
/** Lapsed reservations sharing one look-alike key in the flood turns: every name of 11 letters I and L. */
const FLOOD_LETTERS = 11;

type ServerMode =
  | "service"
  | "bare-same-work"
  | "bare-static"
  | "embedded-database"
  | (typeof LOOKALIKE_MODES)[number];

/** Queries cycle through reserved and free pairs so the database answers both kinds. */
function checkPath(index: number): string {
  const reserved = index % 2 === 0;
  const name = reserved ? `Bench Token ${index % RESERVATIONS}` : `Free Token ${index}`;
  return `/api/v1/identity/check?name=${encodeURIComponent(name)}&ticker=BT${index % 97}&chain=hardhat`;
}

/** Reserved pairs, free pairs and Cyrillic copies (`е`) of reserved pairs, a third each. */
function lookalikePath(index: number): string {
  const pair = index % RESERVATIONS;
  const kind = index % 3;
  const name =
    kind === 0 ? `Bench Token ${pair}` : kind === 1 ? `Free Token ${index}` : `B\u0435nch Token ${pair}`;
  return `/api/v1/identity/check?name=${encodeURIComponent(name)}&ticker=BT${pair % 97}&chain=hardhat`;
}

/** The look-alike mix with every free pair replaced by a name of the flooded look-alike key (FLOOD_LETTERS). */
function floodPath(index: number): string {
  if (index % 3 !== 1) return lookalikePath(index);
  const name = [...(index % 2 ** FLOOD_LETTERS).toString(2).padStart(FLOOD_LETTERS, "0")]
    .map((bit) => (bit === "1" ? "L" : "I"))
    .join("");
  return `/api/v1/identity/check?name=${name}&ticker=LIL&chain=hardhat`;
}

/** Connections per server: enough for the open loop's requests in flight when a server falls behind. */
const CONNECTIONS_PER_SERVER = 4 * CONCURRENCY;
const pools = new Map<string, Pool>();

/** The keep-alive pool of `baseUrl`'s server, the same for every turn. */
function poolOf(baseUrl: string): Pool {
  let pool = pools.get(baseUrl);
  if (pool === undefined) {
    pool = new Pool(baseUrl, { connections: CONNECTIONS_PER_SERVER });
    pools.set(baseUrl, pool);
  }
  return pool;
}

/** Stops a bench server and drops its pool (a later server may listen on the same port). */
async function stopServer(server: { url: string; child: ChildProcess }): Promise<void> {
  const pool = pools.get(server.url);
  pools.delete(server.url);
  await pool?.destroy();
  await stopChildServer(server.child);
}

/** Sends `options` and resolves to the answer's status (0 on a transport error), its body read and dropped. */
async function statusOf(pool: Pool, options: Parameters<Pool["request"]>[0]): Promise<number> {
  try {
    const response = await pool.request(options);
    await response.body.dump();
    return response.statusCode;
  } catch {
    return 0;
  }
}

/** A GET of `path` on `baseUrl`'s server, resolving to the status (0 on a transport error). */
function getter(baseUrl: string): (path: string) => Promise<number> {
  const pool = poolOf(baseUrl);
  return (path) => statusOf(pool, { method: "GET", path });
}

/** A kind of request, sent to `baseUrl`'s server. */
type Workload = (baseUrl: string) => Send;

/** GETs of the paths `pathOf` names. */
function gets(pathOf: (index: number) => string): Workload {
  return (baseUrl) => {
    const get = getter(baseUrl);
    return (index) => get(pathOf(index));
  };
}

/** Signed validations (the bench's hot keyed route), spread over `keys`, for the pairs the checks ask about. */
function validations(keys: readonly string[]): Workload {
  return (baseUrl) => {
    const pool = poolOf(baseUrl);
    return (index) => {
      const reserved = index % 2 === 0;
      return statusOf(pool, {
        method: "POST",
        path: "/api/v1/launches/validate",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${keys[index % keys.length]}`,
        },
        body: JSON.stringify({
          chain: "hardhat",
          name: reserved ? `Bench Token ${index % RESERVATIONS}` : `Free Token ${index}`,
          ticker: `BT${index % 97}`,
          launcher: LAUNCHER,
        }),
      });
    };
  };
}

/** The open loop (bench/support/openLoop.ts) of `workload` on `baseUrl`'s server. */
function openLoop(
  baseUrl: string,
  ratePerSecond: number,
  durationMs: number,
  workload: Workload = gets(checkPath),
): Promise<OpenLoopSample> {
  return openLoopOf(workload(baseUrl), ratePerSecond, durationMs, 1_000_000);
}

function load(
  baseUrl: string,
  durationMs: number,
  workload: Workload = gets(checkPath),
): Promise<Measurement> {
  return closedLoop(workload(baseUrl), durationMs, CONCURRENCY);
}

/** The mirror's seeded reservations, the signing keys and API keys for the validations; returns the keys. */
async function seed(database: Database, masterKey: Buffer): Promise<string[]> {
  await database.pool.query(
    `INSERT INTO chain_checkpoints (chain, family, head_number, head_seen_at, indexed_number, indexed_block_time, indexed_at)
     VALUES ('hardhat', 'evm', 1000, now(), 1000, now(), now())`,
  );
  for (let start = 0; start < RESERVATIONS; start += 500) {
    const rows = Array.from({ length: Math.min(500, RESERVATIONS - start) }, (_, offset) => start + offset);
    const values: unknown[] = [];
    const tuples = rows.map((index, row) => {
      const name = foldV1(`Bench Token ${index}`);
      const ticker = foldV1(`BT${index % 97}`);
      values.push(
        foldedHash(name),
        foldedHash(ticker),
        name,
        ticker,
        `0x${index.toString(16).padStart(40, "0")}`,
      );
      const p = row * 5;
      return `('hardhat', $${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, now(), now() + interval '1 day', 86400, 1, '0x00', 1)`;
    });
    await database.pool.query(
      `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
         reserved_at, expires_at, duration_seconds, fee_paid, tx_hash, block_number)
       VALUES ${tuples.join(", ")} ON CONFLICT DO NOTHING`,
      values,
    );
  }
  await ensureSigningKeys(database.pool, createSecretBox(masterKey));
  const keys = await validationKeys(database.pool, API_KEYS);
  await database.pool.query("ANALYZE");
  return keys;
}

/** Protected identities beyond the seeded ones, generated in SQL (their hashes are stand-ins: never looked up). */
async function seedProtectedIdentities(database: Database): Promise<void> {
  await database.pool.query(
    `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
       reserved_at, expires_at, duration_seconds, fee_paid, tx_hash, block_number)
     SELECT 'hardhat', '0x' || md5('n' || n) || md5('m' || n), '0x' || md5('t' || n) || md5('u' || n),
            'GEN' || translate(n::text, '0123456789', 'ABCDEFGHJK'), 'G' || translate((n % 997)::text, '0123456789', 'ABCDEFGHJK'),
            '0x' || lpad(to_hex(n), 40, '0'), now(), now() + interval '1 day', 86400, 1, '0x00', 1
       FROM generate_series(1, $1::int) AS n`,
    [PROTECTED_IDENTITIES - RESERVATIONS],
  );
  await database.pool.query("ANALYZE chain_reservations");
}

/** The identity check's steps as served (batched reads), with the look-alike read or without it. */
function lookalikeCaseCheck(
  database: Database,
  mode: (typeof LOOKALIKE_MODES)[number],
  postgresServer: boolean,
) {
  const readChains = chainReader(undefined, 1_000, Date.now);
  const load = snapshotLoader(database.pool, () => postgresServer);
  return async (request: { name: string; ticker: string; chain: string }) => {
    const context: EvaluationContext = {
      environment: "production",
      configuredChains: CHAINS,
      freshnessBoundSeconds: DEFAULT_FRESHNESS_BOUND_SECONDS,
      now: new Date(),
    };
    if (mode === "check-with-lookalikes") {
      return checkIdentity(load, readChains, context, request, null);
    }
    const identity = normalizedOrReject(request.name, request.ticker);
    const snapshot = await load({
      environment: "production",
      identity,
      chain: request.chain,
      partnerId: null,
    });
    const reads = await readStaleChains(readChains, snapshot, context, identity, request.chain, undefined);
    const { result, adapter } = evaluate(snapshot, context, request.chain, undefined, reads);
    return checkResultOf(identity, result, adapter);
  };
}

/** Child-process side: serve one mode on a free port and print its URL. */
async function serve(mode: ServerMode): Promise<void> {
  // Every server here, the baselines too, runs with the heap policy `serveApi` applies to the API.
  applyApiHeapPolicy();
  const { BENCH_DB_URL, BENCH_DB_SCHEMA } = process.env;
  const listenOn = (handler: Parameters<typeof createServer>[1]) => listenOnFreePort(createServer(handler));
  let url: string;
  let close: (() => Promise<void>) | undefined;
  if (mode === "embedded-database") {
    const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-"));
    const embedded = await openDatabase({
      kind: "embedded",
      dataDir,
      host: "127.0.0.1",
      port: await freePort(),
    });
    process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));
    close = () => embedded.close();
    url = embedded.url;
  } else if (mode === "bare-static") {
    url = await listenOn(bareStaticHandler);
  } else {
    if (!BENCH_DB_URL || !BENCH_DB_SCHEMA) throw new Error("BENCH_DB_URL and BENCH_DB_SCHEMA are required");
    const database = await openDatabase({ kind: "postgres", url: BENCH_DB_URL, schema: BENCH_DB_SCHEMA });
    if (mode === "check-with-lookalikes" || mode === "check-without-lookalikes") {
      const check = lookalikeCaseCheck(database, mode, await isPostgresServer(database.pool));
      url = await listenOn(async (req, res) => {
        const query = new URL(req.url ?? "/", "http://bench").searchParams;
        const result = await check({
          name: query.get("name") ?? "",
          ticker: query.get("ticker") ?? "",
          chain: query.get("chain") ?? "hardhat",
        });
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
      });
    } else if (mode === "service") {
      const app = createApp({
        pool: database.pool,
        startedAt: new Date(),
        log: createLogger({ level: "warn" }),
        masterKey: Buffer.from(process.env.BENCH_MASTER_KEY ?? "", "hex"),
        keylessRateLimitPerMinute: UNREACHABLE_LIMIT,
        decisions: { chains: CHAINS },
      });
      url = await listenOn(app);
    } else {
      const { identity } = createServices({
        pool: database.pool,
        masterKey: randomBytes(32),
        now: Date.now,
        decisions: { chains: CHAINS },
      });
      await identity.check("production", { name: "Warm", ticker: "UP" }, null); // start-up, once, before serving
      url = await listenOn(async (req, res) => {
        // The route handler's one call, without the request sequence around it.
        const query = new URL(req.url ?? "/", "http://bench").searchParams;
        const result = await identity.check(
          "production",
          {
            name: query.get("name") ?? "",
            ticker: query.get("ticker") ?? "",
            chain: query.get("chain") ?? undefined,
          },
          null,
        );
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
      });
    }
  }
  process.on("message", (message) => {
    if (message === "cpu") process.send?.(process.cpuUsage());
  });
  announceChildServer(url, close);
}

interface BenchSchema {
  database: Database;
  schema: string;
}

/**
 * Fresh schemas for the bench, dropped at the end: on DATABASE_URL, else each on its own embedded server
 * (the embedded server has one session for all its connections, so one schema per server) in a process of
 * its own.
 */
function benchSchemas(): { openSchema: () => Promise<BenchSchema>; cleanup: () => Promise<void> } {
  const cleanups: (() => Promise<void>)[] = [];
  return {
    openSchema: async () => {
      const schema = `bench_${randomBytes(4).toString("hex")}`;
      let url = process.env.DATABASE_URL;
      if (url === undefined) {
        // Its own process, as the servers have: in the load generator's, its statements would hold up the
        // load generator's clock and sockets and show in every latency.
        const server = await startChildServer(__filename, "embedded-database", {});
        cleanups.push(() => stopChildServer(server.child));
        url = server.url;
      }
      const database = await openDatabase({ kind: "postgres", url, schema });
      cleanups.push(async () => {
        await database.pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`);
        await database.close();
      });
      return { database, schema };
    },
    cleanup: async () => {
      // Each schema before the server it is on.
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
  };
}

/** The index must stay fresh or the check answers recheck_required from a stale mirror. */
async function refresh(database: Database): Promise<void> {
  await database.pool.query("UPDATE chain_checkpoints SET indexed_at = now(), head_seen_at = now()");
}

type Running = { mode: ServerMode; url: string; child: ChildProcess };

/**
 * API_CASES: a comma-separated subset of these (default: all three); `scale` runs `throughput` too, at half of
 * whose check throughput it measures.
 */
const CASES = ["throughput", "scale", "lookalike"] as const;

export async function run(emit: Emit): Promise<void> {
  const { openSchema, cleanup } = benchSchemas();
  process.stderr.write(
    `api bench on ${process.env.DATABASE_URL ? "Postgres (DATABASE_URL)" : "the embedded database"}: ${CONCURRENCY} connections, ${ROUNDS} rounds of ${ROUND_MS / 1000} s per server\n`,
  );
  const cases = chosenCases("API_CASES", CASES);
  const servers: Running[] = [];
  try {
    const small = await openSchema();
    const masterKey = randomBytes(32);
    const keys = await seed(small.database, masterKey);
    const env = {
      BENCH_DB_URL: small.database.url,
      BENCH_DB_SCHEMA: small.schema,
      BENCH_MASTER_KEY: masterKey.toString("hex"),
    };
    if (cases.has("throughput") || cases.has("scale")) {
      const throughput = await throughputCase(small.database, env, keys, servers, emit);
      if (cases.has("scale")) {
        const large = await openSchema();
        await seed(large.database, masterKey);
        const halfRate = Math.max(1, Math.round(throughput / 2));
        await scaleCase(small, large, servers, halfRate, env.BENCH_MASTER_KEY, emit);
      }
      for (const server of servers.splice(0)) await stopServer(server);
    }
    if (cases.has("lookalike")) await lookalikeCase(small.database, env, servers, emit);
  } finally {
    for (const server of servers) await stopServer(server);
    await cleanup();
  }
}

/**
 * The servers' throughput in turns (the full app's check and validate, the bare servers); leaves the full app
 * running in `servers` and returns it with its check throughput.
 */
async function throughputCase(
  database: Database,
  env: Record<string, string>,
  keys: readonly string[],
  servers: Running[],
  emit: Emit,
): Promise<number> {
  for (const mode of MODES) servers.push({ mode, ...(await startChildServer(__filename, mode, env)) });
  const service = servers.find((server) => server.mode === "service");
  if (service === undefined) throw new Error("the service did not start");
  // Validations go to the same full app as the checks, in their own turn of every round: the
  // comparison the issue sets (check >= validate) in the same machine state.
  const turns = [
    ...servers.map((server) => ({
      label: server.mode as string,
      url: server.url,
      workload: gets(checkPath),
    })),
    { label: "validate", url: service.url, workload: validations(keys) },
  ];
  for (const turn of turns) await load(turn.url, WARMUP_MS, turn.workload);
  const rounds = new Map<string, Measurement[]>(turns.map((turn) => [turn.label, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    await refresh(database);
    for (const turn of turns) rounds.get(turn.label)?.push(await load(turn.url, ROUND_MS, turn.workload));
  }
  const throughput = new Map<string, number>();
  for (const { label } of turns) {
    const result = combined(rounds.get(label) ?? []);
    const rps = result.latencies.length / result.seconds;
    const p50 = percentile(result.latencies, 0.5);
    const p99 = percentile(result.latencies, 0.99);
    throughput.set(label, rps);
    process.stderr.write(
      `${label.padEnd(15)} ${rps.toFixed(0).padStart(6)} req/s  p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  non-200 ${result.errors}\n`,
    );
    emit(`${label}.throughput`, Math.round(rps), "req/s");
    emit(`${label}.p50`, Number(p50.toFixed(3)), "ms");
    emit(`${label}.p99`, Number(p99.toFixed(3)), "ms");
    emit(`${label}.non_200`, result.errors, "responses");
  }
  const ratio = (label: string) =>
    Number(((throughput.get("service") ?? 0) / (throughput.get(label) ?? 1)).toFixed(3));
  emit("identity_check.ratio_vs_bare_same_work", ratio("bare-same-work"), "ratio");
  emit("identity_check.ratio_vs_bare_static", ratio("bare-static"), "ratio");
  emit("identity_check.ratio_vs_validate", ratio("validate"), "ratio");
  for (const server of servers.splice(0)) await stopServer(server);
  return throughput.get("service") ?? 0;
}

/** Identities in the mirror for the scale case: reservations and as many locks, generated in SQL. */
const SCALE_IDENTITIES = Number(process.env.SCALE_IDENTITIES ?? 1_000_000);
const SETTLE_MS = 2_000;
/** The apps take turns at the same rate, so all see the same machine; a turn lasts SCALE_TURN_MS (default 3 s). */
const SCALE_ROUNDS = 6;
const SCALE_TURN_MS = Number(process.env.SCALE_TURN_MS ?? 3_000);
/**
 * Each turn first runs at the rate for this long, reported on its own (`p99_turn_lead_in`): a server resuming
 * after the other's turn often answered its first ~150 ms slower (why is not known), which a server under steady
 * load does not see, and which decided single turns' p99.
 */
const TURN_LEAD_IN_MS = 500;
/** Comparisons of the two sizes on the same schemas (SCALE_RUNS, default 1), each its own median of pairs. */
const SCALE_RUNS = Number(process.env.SCALE_RUNS ?? 1);
const LIST_SAMPLES = 10;
/**
 * The list's default page, a search that matches, one that matches nothing, and a chain without records (the
 * worst cases of a scan).
 */
const LIST_PATHS = [
  "/api/v1/protected-identities",
  "/api/v1/protected-identities?q=BENCHTOKEN1",
  "/api/v1/protected-identities?q=QQQQQQ",
  "/api/v1/protected-identities?chain=solana-localnet",
];

async function recordCount(database: Database): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(
    "SELECT (SELECT count(*) FROM chain_reservations)::int + (SELECT count(*) FROM identity_locks)::int AS n",
  );
  return rows[0]?.n ?? 0;
}

/** The list's latencies (sequential GETs, median of LIST_SAMPLES) at the mirror's current size. */
async function listLatencies(baseUrl: string, emit: Emit, label: "small" | "large"): Promise<void> {
  const get = getter(baseUrl);
  for (const [index, path] of LIST_PATHS.entries()) {
    const latencies: number[] = [];
    for (let sampleIndex = 0; sampleIndex < LIST_SAMPLES; sampleIndex += 1) {
      const started = performance.now();
      if ((await get(path)) !== 200) throw new Error(`${path} did not answer 200`);
      latencies.push(performance.now() - started);
    }
    const p50 = median(latencies);
    process.stderr.write(`  ${label} ${path}: median ${p50.toFixed(2)} ms\n`);
    emit(
      `protected_identities.${label}.list_${["default", "q_match", "q_none", "chain_none"][index]}_p50`,
      Number(p50.toFixed(3)),
      "ms",
    );
  }
}

/** Reservations and locks generated in SQL (stand-in hashes: never looked up), as a settled database holds them. */
async function generateIdentities(database: Database): Promise<void> {
  const started = performance.now();
  await database.pool.query(
    `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
       reserved_at, expires_at, duration_seconds, fee_paid, tx_hash, block_number)
     SELECT 'hardhat', '0x' || md5('sn' || n) || md5('sm' || n), '0x' || md5('st' || n) || md5('su' || n),
            'SCALE' || translate(n::text, '0123456789', 'ABCDEFGHJK'), 'S' || translate((n % 997)::text, '0123456789', 'ABCDEFGHJK'),
            '0x' || lpad(to_hex(n), 40, '0'), now() - n * interval '1 second', now() + interval '1 day', 86400, 1, '0x00', 1
       FROM generate_series(1, $1::int) AS n`,
    [SCALE_IDENTITIES],
  );
  await database.pool.query(
    `INSERT INTO identity_locks (environment, identity_key, chain, kind, was_reserved, authorized_launcher, applied_at, expires_at)
     SELECT 'production', 'LOCKED' || translate(n::text, '0123456789', 'ABCDEFGHJK') || '::L' || translate((n % 997)::text, '0123456789', 'ABCDEFGHJK'),
            'hardhat', 'bonded', false, '0x' || lpad(to_hex(n), 40, '0'), now() - n * interval '1 second', now() + interval '2 days'
       FROM generate_series(1, $1::int) AS n`,
    [SCALE_IDENTITIES],
  );
  // A bulk load leaves work a running database has long done: hint bits, the visibility map, statistics,
  // and dirty pages for the next checkpoint. Done here, or the measurement would time that backlog.
  await database.pool.query("VACUUM ANALYZE chain_reservations");
  await database.pool.query("VACUUM ANALYZE identity_locks");
  await database.pool.query("CHECKPOINT").catch((error: Error) => {
    process.stderr.write(`scale case: CHECKPOINT refused (${error.message}); measuring without it\n`);
  });
  process.stderr.write(
    `scale case: ${2 * SCALE_IDENTITIES} records generated in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
}

/**
 * The check at half its maximum rate on the seeded mirror and on the same mirror with SCALE_IDENTITIES
 * reservations and as many locks more, each on its own schema and app, and on a control app on the small schema:
 * the three take turns (open loop), so a neighbour's burst falls on one turn, and each run's figure is the median
 * of its per-pair p99 ratios.
 */
async function scaleCase(
  small: BenchSchema,
  large: BenchSchema,
  servers: Running[],
  rate: number,
  masterKeyHex: string,
  emit: Emit,
): Promise<void> {
  await generateIdentities(large.database);
  // Three fresh apps with the same history: the throughput case's app had served the maximum rounds, and its
  // tail at half rate came out longer than a fresh app's on the same schema (the control, below, showed it).
  const appOn = async (schema: BenchSchema) => {
    const server = {
      mode: "service" as const,
      ...(await startChildServer(__filename, "service", {
        BENCH_DB_URL: schema.database.url,
        BENCH_DB_SCHEMA: schema.schema,
        BENCH_MASTER_KEY: masterKeyHex,
      })),
    };
    servers.push(server);
    await load(server.url, WARMUP_MS);
    return server;
  };
  const [smallServer, largeServer, controlServer] = [
    await appOn(small),
    await appOn(large),
    await appOn(small),
  ];
  const sizes: Sizes = [
    { label: "small", schema: small, url: smallServer.url, rounds: [], leadIns: [] },
    { label: "large", schema: large, url: largeServer.url, rounds: [], leadIns: [] },
    { label: "control", schema: small, url: controlServer.url, rounds: [], leadIns: [] },
  ];
  for (const size of sizes) {
    await refresh(size.schema.database);
    await openLoop(size.url, rate, SETTLE_MS);
  }
  const runs: Record<Compared, { pairs: number[]; pooled: number[] }> = {
    large: { pairs: [], pooled: [] },
    control: { pairs: [], pooled: [] },
  };
  for (let run = 0; run < SCALE_RUNS; run += 1) {
    const { pairRatios, p99s } = await scaleRun(sizes, rate);
    for (const compared of COMPARED) {
      process.stderr.write(
        `check p99 at half rate, ${compared} / small, per pair of turns${SCALE_RUNS > 1 ? ` (run ${run + 1})` : ""}: ${pairRatios[compared].map((ratio) => ratio.toFixed(2)).join(" ")}; over the run's turns ${p99s.small.toFixed(2)} / ${p99s[compared].toFixed(2)} ms\n`,
      );
      runs[compared].pairs.push(median(pairRatios[compared]));
      runs[compared].pooled.push(p99s[compared] / p99s.small);
    }
  }
  for (const size of sizes) {
    if (size.label === "control") continue;
    const identities = await recordCount(size.schema.database);
    const result = combined(size.rounds);
    const p50 = percentile(result.latencies, 0.5);
    const p99 = percentile(result.latencies, 0.99);
    const leadInP99 = percentile(combined(size.leadIns).latencies, 0.99);
    const slip = slipShare(size.rounds);
    process.stderr.write(
      `check at ${rate} req/s (half of its maximum), ${identities} records: p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms (turns' first ${TURN_LEAD_IN_MS} ms: ${leadInP99.toFixed(2)} ms)  non-200 ${result.errors}  generator's schedule slipped ${(slip * 100).toFixed(2)}%\n`,
    );
    emit(`identity_check.${size.label}.records`, identities, "records");
    emit(`identity_check.${size.label}.half_rate`, rate, "req/s");
    emit(`identity_check.${size.label}.p50_at_half_rate`, Number(p50.toFixed(3)), "ms");
    emit(`identity_check.${size.label}.p99_at_half_rate`, Number(p99.toFixed(3)), "ms");
    emit(`identity_check.${size.label}.p99_turn_lead_in`, Number(leadInP99.toFixed(3)), "ms");
    emit(`identity_check.${size.label}.non_200_at_half_rate`, result.errors, "responses");
    emit(`identity_check.${size.label}.generator_slip_at_half_rate`, Number(slip.toFixed(4)), "share");
    await listLatencies(size.url, emit, size.label);
  }
  for (const compared of COMPARED) {
    const { pairs, pooled } = runs[compared];
    process.stderr.write(
      `check p99 at half rate, ${compared} / small, median of pairs per run: ${pairs.map((ratio) => ratio.toFixed(2)).join(" ")}; over each run's turns: ${pooled.map((ratio) => ratio.toFixed(2)).join(" ")}\n`,
    );
    const metric = `identity_check.p99_ratio_${compared}_to_small`;
    emit(metric, Number(median(pairs).toFixed(3)), "ratio");
    emit(`${metric}_worst_run`, Number(Math.max(...pairs).toFixed(3)), "ratio");
    emit(`${metric}_pooled`, Number(median(pooled).toFixed(3)), "ratio");
    emit(`${metric}_pooled_worst_run`, Number(Math.max(...pooled).toFixed(3)), "ratio");
  }
  emit("identity_check.p99_ratio_runs", SCALE_RUNS, "runs");
}

interface Size {
  label: "small" | Compared;
  schema: BenchSchema;
  url: string;
  rounds: OpenLoopSample[];
  leadIns: OpenLoopSample[];
}

/**
 * What each turn of the small schema's app is compared with: the large schema's app, and the control, a second
 * app on the small schema. The control's ratio is what the comparison reads when the size makes no difference
 * (the same schema, another process taking the same turns), so it shows how far turns of the same work differ.
 */
const COMPARED = ["large", "control"] as const;
type Compared = (typeof COMPARED)[number];
type Sizes = [Size, Size, Size];

/**
 * SCALE_ROUNDS rounds of one turn each: each round's p99 ratio of the large app and of the control over the small
 * one, and each app's p99 over all its turns of the run ("the p99 at half rate" read literally: a pause of ~100 ms,
 * which sets one turn's p99, moves it little).
 */
async function scaleRun(
  sizes: Sizes,
  rate: number,
): Promise<{ pairRatios: Record<Compared, number[]>; p99s: Record<Size["label"], number> }> {
  const turns: Record<Size["label"], OpenLoopSample[]> = { small: [], large: [], control: [] };
  const p99 = (measurement: Measurement) => percentile(measurement.latencies, 0.99);
  for (let round = 0; round < SCALE_ROUNDS; round += 1) {
    // The order turns round, so no app always meets the same one's leftovers.
    const shift = round % sizes.length;
    for (const size of [...sizes.slice(shift), ...sizes.slice(0, shift)]) {
      await refresh(size.schema.database);
      size.leadIns.push(await openLoop(size.url, rate, TURN_LEAD_IN_MS));
      const turn = await openLoop(size.url, rate, SCALE_TURN_MS);
      size.rounds.push(turn);
      turns[size.label].push(turn);
    }
  }
  const ratiosOver = (compared: Compared) =>
    turns[compared].map((turn, round) => p99(turn) / p99(turns.small[round] as OpenLoopSample));
  return {
    pairRatios: { large: ratiosOver("large"), control: ratiosOver("control") },
    p99s: {
      small: p99(combined(turns.small)),
      large: p99(combined(turns.large)),
      control: p99(combined(turns.control)),
    },
  };
}

/** Fetches one check and says whether it named a look-alike. */
async function answersLookalike(baseUrl: string, path: string): Promise<boolean> {
  const response = await fetch(new URL(path, baseUrl));
  return "lookalikeOf" in ((await response.json()) as object);
}

/** CPU seconds (user + system) a server process has used so far; asked over the fork's IPC channel. */
function serverCpuSeconds(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once("message", (usage: NodeJS.CpuUsage) => resolve((usage.user + usage.system) / 1e6));
    child.send("cpu");
  });
}

async function lookalikeCase(
  database: Database,
  env: Record<string, string>,
  servers: { mode: ServerMode; url: string; child: ChildProcess }[],
  emit: Emit,
): Promise<void> {
  await seedProtectedIdentities(database);
  for (const mode of LOOKALIKE_MODES)
    servers.push({ mode, ...(await startChildServer(__filename, mode, env)) });
  const [withAdvisory, without] = servers;
  if (withAdvisory === undefined || without === undefined)
    throw new Error("look-alike servers did not start");
  // The case measures what it claims: a copy gets its advisory from one server and not from the other.
  if (
    !(await answersLookalike(withAdvisory.url, lookalikePath(2))) ||
    (await answersLookalike(without.url, lookalikePath(2)))
  ) {
    throw new Error("the look-alike case's servers do not answer as expected");
  }
  for (const server of servers) await load(server.url, WARMUP_MS, gets(lookalikePath));
  const rounds = new Map<ServerMode, Measurement[]>(LOOKALIKE_MODES.map((mode) => [mode, []]));
  const cpuPerRequest = new Map<ServerMode, number[]>(LOOKALIKE_MODES.map((mode) => [mode, []]));
  const databaseCpuPerRequest = new Map<ServerMode, number[]>(LOOKALIKE_MODES.map((mode) => [mode, []]));
  const pairRatios: number[] = [];
  for (let round = 0; round < LOOKALIKE_ROUNDS; round += 1) {
    await database.pool.query("UPDATE chain_checkpoints SET indexed_at = now(), head_seen_at = now()");
    // Alternate which server goes first, so neither always meets the other's leftovers.
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    const rps = new Map<ServerMode, number>();
    for (const server of order) {
      const cpuBefore = await serverCpuSeconds(server.child);
      const databaseBefore = postgresCpu();
      const measurement = await load(server.url, ROUND_MS, gets(lookalikePath));
      const databaseAfter = postgresCpu();
      const cpu = (await serverCpuSeconds(server.child)) - cpuBefore;
      rounds.get(server.mode)?.push(measurement);
      cpuPerRequest.get(server.mode)?.push((cpu / measurement.latencies.length) * 1e6);
      const databaseCpu = postgresCpuMicrosPerRequest(
        databaseBefore,
        databaseAfter,
        measurement.latencies.length,
      );
      if (databaseCpu !== undefined) databaseCpuPerRequest.get(server.mode)?.push(databaseCpu);
      rps.set(server.mode, measurement.latencies.length / measurement.seconds);
    }
    // One ratio per pair of back-to-back rounds: a neighbour's burst spoils one pair, not the figure.
    pairRatios.push((rps.get("check-with-lookalikes") ?? 0) / (rps.get("check-without-lookalikes") ?? 1));
  }
  for (const mode of LOOKALIKE_MODES) {
    const result = combined(rounds.get(mode) ?? []);
    const rps = result.latencies.length / result.seconds;
    const p50 = percentile(result.latencies, 0.5);
    const p99 = percentile(result.latencies, 0.99);
    const cpu = median(cpuPerRequest.get(mode) ?? []);
    const databaseCpu = databaseCpuPerRequest.get(mode) ?? [];
    process.stderr.write(
      `${mode.padEnd(24)} ${rps.toFixed(0).padStart(6)} req/s  p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  server CPU ${cpu.toFixed(0)} µs/request${databaseCpu.length > 0 ? `, database ${median(databaseCpu).toFixed(0)}` : ""}  non-200 ${result.errors}  (${PROTECTED_IDENTITIES} protected identities)\n`,
    );
    emit(`${mode}.throughput`, Math.round(rps), "req/s");
    emit(`${mode}.p50`, Number(p50.toFixed(3)), "ms");
    emit(`${mode}.p99`, Number(p99.toFixed(3)), "ms");
    emit(`${mode}.server_cpu`, Math.round(cpu), "µs/request");
    if (databaseCpu.length > 0) emit(`${mode}.database_cpu`, Math.round(median(databaseCpu)), "µs/request");
    emit(`${mode}.non_200`, result.errors, "responses");
  }
  process.stderr.write(
    `look-alike check / plain check, per pair of rounds: ${pairRatios.map((ratio) => ratio.toFixed(3)).join(" ")}\n`,
  );
  emit("identity_check.lookalike_throughput_ratio", Number(median(pairRatios).toFixed(3)), "ratio");
  emit("identity_check.protected_identities", PROTECTED_IDENTITIES, "identities");
  await lookalikeFloodTurns(database, withAdvisory.url, emit);
}

/**
 * A look-alike flood: 2^FLOOD_LETTERS lapsed reservations whose names share one look-alike key, and a third
 * of the checks asking a name of that key, against the plain look-alike mix, on the served check in
 * alternating turns. The read takes each source's live records in index order (at most 16), so lapsed ones cost
 * nothing; one sort per request over all of them cut the check to a quarter here (docs/performance.md).
 */
async function lookalikeFloodTurns(database: Database, url: string, emit: Emit): Promise<void> {
  await database.pool.query(
    `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
       reserved_at, expires_at, duration_seconds, fee_paid, tx_hash, block_number)
     SELECT 'hardhat', '0x' || md5('f' || n) || md5('g' || n), '0x' || md5('h' || n) || md5('k' || n),
            translate(lpad(n::bit(${FLOOD_LETTERS})::text, ${FLOOD_LETTERS}, '0'), '01', 'IL'), 'LIL',
            '0x' || lpad(to_hex(n), 40, '0'), now() - interval '2 days', now() - interval '1 day' + n * interval '1 second',
            86400, 1, '0x00', 1
       FROM generate_series(0, $1::int - 1) AS n`,
    [2 ** FLOOD_LETTERS],
  );
  await database.pool.query("ANALYZE chain_reservations");
  await load(url, WARMUP_MS, gets(floodPath));
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    await database.pool.query("UPDATE chain_checkpoints SET indexed_at = now(), head_seen_at = now()");
    const turns = round % 2 === 0 ? [floodPath, lookalikePath] : [lookalikePath, floodPath];
    const rps = new Map<(index: number) => string, number>();
    for (const pathOf of turns) {
      const measurement = await load(url, ROUND_MS, gets(pathOf));
      rps.set(pathOf, measurement.latencies.length / measurement.seconds);
    }
    ratios.push((rps.get(floodPath) ?? 0) / (rps.get(lookalikePath) ?? 1));
  }
  process.stderr.write(
    `look-alike flood (${2 ** FLOOD_LETTERS} look-alikes of one key) / plain mix, per pair: ${ratios.map((ratio) => ratio.toFixed(3)).join(" ")}\n`,
  );
  emit("identity_check.lookalike_flood_throughput_ratio", Number(median(ratios).toFixed(3)), "ratio");
}

if (process.argv[2] === "--serve") {
  serve(process.argv[3] as ServerMode).catch((error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  });
}
