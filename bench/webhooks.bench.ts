// Webhook delivery (docs/webhooks.md, "Figures"): the worker's webhook job (worker/webhooks.ts: the real
// dispatcher, fan-out, claims, signing, recording) against a local receiver on Postgres, beside a baseline in
// the same run.
// - throughput: EVENTS events enqueued at once, one per endpoint in turn, delivered by the job; the baseline is
//   a bare loop that signs the same envelopes and POSTs them to the same receiver over the same transport,
//   at the job's concurrency (PER_ENDPOINT per endpoint, ENDPOINTS endpoints). ROUNDS rounds of both, medians
//   reported (the ratio's median is over each round's ratio), with this process's CPU per delivery on each side
//   and, on the job's, the database's CPU (Postgres) and the WAL it wrote. Goal: ratio >= 0.5;
// - latency: events written one transaction each at a steady RATE per second for LATENCY_SECONDS, from the
//   event's insert (its createdAt) to the first attempt's arrival at the receiver. Goal: p99 <= 1 s;
// - idle endpoints: one claim statement's time (median of CLAIM_SAMPLES) taking CLAIM_DUE due deliveries of the
//   bench's endpoints, and one fan-out's (median of FAN_OUT_SAMPLES) of FAN_OUT_EVENTS events of the bench's
//   partners, alone and beside IDLE_ENDPOINTS more enabled endpoints of other partners, in alternating turns.
//   Goal: the idle endpoints cost nothing (ratio ~1).
// Database: DATABASE_URL when set (a fresh schema), else the embedded one. Everything runs in this process.

import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { Pool } from "pg";
import { createSecretBox } from "../core/secrets/secretBox";
import { webhooksService } from "../services/webhooks";
import { claimDueDeliveries, releaseLeases } from "../services/webhooks/claims";
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_PER_ENDPOINT } from "../services/webhooks/dispatcher";
import { envelopeBody, signedHeaders } from "../services/webhooks/envelope";
import { fanOutEvents } from "../services/webhooks/fanOut";
import { checkedReceiver } from "../services/webhooks/receiverUrl";
import { createTransport, postToReceiver } from "../services/webhooks/send";
import { appendDomainEvents, type DomainEvent } from "../storage/domainEvents";
import { withTransaction } from "../storage/transaction";
import { insertIdleEndpoints } from "../test/services/webhooks/support";
import { createTestDatabase, stopSharedEmbeddedServer } from "../test/support/testDatabase";
import { startWebhookJob } from "../worker/webhooks";
import type { Emit } from "./run";
import { listenOnFreePort } from "./support/childServer";
import { postgresCpu, postgresCpuMicrosPerRequest } from "./support/postgresCpu";
import { median, percentile } from "./support/stats";
import { walBytesSince, walPosition } from "./support/walBytes";

const ENDPOINTS = DEFAULT_MAX_IN_FLIGHT / DEFAULT_PER_ENDPOINT;
/** Events a throughput round delivers. */
const EVENTS = Number(process.env.WEBHOOK_BENCH_EVENTS ?? 2000);
/** Throughput rounds (bare loop, then the job, each round); the medians are reported. */
const ROUNDS = Number(process.env.WEBHOOK_BENCH_ROUNDS ?? 5);
const RATE = 100;
const LATENCY_SECONDS = Number(process.env.LAT_S ?? 15);
const CLAIM_DUE = 64;
const CLAIM_SAMPLES = 40;
const FAN_OUT_EVENTS = 500;
const FAN_OUT_SAMPLES = 12;
/** Alternating turns of the idle-endpoint comparisons. */
const SCALING_TURNS = 4;
const IDLE_ENDPOINTS = 5000;

const note = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers 200 at once; records each delivery id's first arrival (ms since the epoch) and its createdAt. */
class Receiver {
  readonly first = new Map<string, { at: number; createdAt: number }>();
  arrivals = 0;
  private server: Server | undefined;
  private waiters: Array<() => void> = [];
  /** The receiver's base URL, once started. */
  url = "";

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const at = Date.now();
        const envelope = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          id: string;
          createdAt: string;
        };
        this.arrivals++;
        if (!this.first.has(envelope.id))
          this.first.set(envelope.id, { at, createdAt: Date.parse(envelope.createdAt) });
        response.writeHead(200).end();
        // Each waiter is woken once (reached() adds a fresh one per arrival it waits past).
        const waiters = this.waiters;
        this.waiters = [];
        for (const waiter of waiters) waiter();
      });
    });
    this.server.keepAliveTimeout = 120_000;
    this.url = await listenOnFreePort(this.server);
  }

  /** Resolves once `count` distinct deliveries have arrived. */
  async reached(count: number): Promise<void> {
    while (this.first.size < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  reset(): void {
    this.first.clear();
    this.arrivals = 0;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

interface Setup {
  pool: Pool;
  masterKey: Buffer;
  receiver: Receiver;
  partners: string[];
  urls: string[];
  secrets: string[];
}

function eventsFor(setup: Setup, first: number, count: number): DomainEvent[] {
  return Array.from({ length: count }, (_, offset) => ({
    type: "launch.reported",
    environment: "production",
    partnerId: setup.partners[(first + offset) % setup.partners.length] ?? null,
    payload: { seq: first + offset, launchId: `lch_${first + offset}` },
  }));
}

function startJob(setup: Setup) {
  return startWebhookJob({
    pool: setup.pool,
    masterKey: setup.masterKey,
    allowLocalReceivers: true,
    log: note,
  });
}

/** A throughput round's deliveries a second, and this process's CPU per delivery (µs). */
interface BareSide {
  throughput: number;
  processCpu: number;
}

/** The job's side also counts the database's work per delivery. */
interface JobSide extends BareSide {
  /** µs, on Postgres only (embedded, the database runs in this process: its CPU is in processCpu). */
  databaseCpu: number | undefined;
  /** Bytes of WAL (the job's writes). */
  walBytes: number;
}

/** This process's CPU (user + system, every thread) per delivery since `since`, µs. */
function processCpuPerDelivery(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / EVENTS;
}

async function dispatcherThroughput(setup: Setup, round: number): Promise<JobSide> {
  await withTransaction(setup.pool, (client) =>
    appendDomainEvents(client, eventsFor(setup, round * EVENTS, EVENTS)),
  );
  const onPostgres = process.env.DATABASE_URL !== undefined;
  const walBefore = await walPosition(setup.pool);
  const databaseBefore = onPostgres ? postgresCpu() : undefined;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const job = startJob(setup);
  await setup.receiver.reached(EVENTS);
  const seconds = (performance.now() - started) / 1000;
  const processCpu = processCpuPerDelivery(cpuBefore);
  const databaseCpu = postgresCpuMicrosPerRequest(databaseBefore, postgresCpu(), EVENTS);
  await job.stop();
  // After the stop: the last outcomes' statements have committed.
  const walBytes = (await walBytesSince(setup.pool, walBefore)) / EVENTS;
  note(`dispatcher: ${EVENTS} deliveries in ${seconds.toFixed(2)} s (${setup.receiver.arrivals} arrivals)`);
  return { throughput: EVENTS / seconds, processCpu, databaseCpu, walBytes };
}

/** The same envelopes, signed the same way, POSTed over the same transport at the job's concurrency. */
async function bareLoopThroughput(setup: Setup): Promise<BareSide> {
  const transport = createTransport();
  const targets = await Promise.all(
    setup.urls.map((url) => checkedReceiver(url, { allowLocalReceivers: true, lookup: async () => [] })),
  );
  const createdAt = new Date();
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: DEFAULT_MAX_IN_FLIGHT }, async (_, lane) => {
      const endpoint = lane % ENDPOINTS;
      const target = targets[endpoint];
      const secret = setup.secrets[endpoint];
      if (target === undefined || secret === undefined) throw new Error("no endpoint");
      while (next < EVENTS) {
        const seq = next++;
        const id = `msg_bare_${seq}`;
        const body = envelopeBody({
          id,
          type: "launch.reported",
          createdAt,
          data: { seq, launchId: `lch_${seq}` },
        });
        const headers = signedHeaders(
          id,
          body,
          { endpoint: [secret], sandboxKeys: [] },
          Math.floor(Date.now() / 1000),
        );
        const outcome = await postToReceiver(transport, target, body, headers, 15_000);
        if (outcome.status !== 200) throw new Error(`bare POST: ${outcome.status} ${outcome.error}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const processCpu = processCpuPerDelivery(cpuBefore);
  transport.http.destroy();
  note(`bare loop: ${EVENTS} POSTs in ${seconds.toFixed(2)} s`);
  return { throughput: EVENTS / seconds, processCpu };
}

/** One claim's time, ms, per sample: each takes CLAIM_DUE due deliveries and gives them back. */
async function claimSamples(setup: Setup, samples: number): Promise<number[]> {
  const limits = {
    holder: "bench",
    limit: CLAIM_DUE,
    perEndpoint: DEFAULT_PER_ENDPOINT,
    aheadPerEndpoint: CLAIM_DUE,
    leaseMs: 60_000,
    held: [],
  };
  const times: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    const started = performance.now();
    const claimed = await claimDueDeliveries(setup.pool, new Date(), limits);
    times.push(performance.now() - started);
    if (claimed.length !== CLAIM_DUE)
      throw new Error(`claimed ${claimed.length} of ${CLAIM_DUE} due deliveries`);
    await releaseLeases(setup.pool, claimed);
  }
  return times;
}

/** One fan-out's time, ms, per sample: each fans out FAN_OUT_EVENTS new events of the bench's partners. */
async function fanOutSamples(setup: Setup, samples: number): Promise<number[]> {
  const times: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    await withTransaction(setup.pool, (client) =>
      appendDomainEvents(client, eventsFor(setup, 0, FAN_OUT_EVENTS)),
    );
    const started = performance.now();
    const fanned = await fanOutEvents(setup.pool, new Date(), FAN_OUT_EVENTS);
    times.push(performance.now() - started);
    if (fanned.deliveries !== FAN_OUT_EVENTS)
      throw new Error(`fanned out ${fanned.deliveries} deliveries for ${FAN_OUT_EVENTS} events`);
  }
  return times;
}

interface IdleEndpointCosts {
  claim: { alone: number; beside: number };
  fanOut: { alone: number; beside: number };
}

/**
 * A claim's and a fan-out's time (medians) with the bench's endpoints alone and beside IDLE_ENDPOINTS enabled
 * endpoints of other partners, in SCALING_TURNS alternating turns (the idle endpoints disabled, then enabled):
 * every claim, release and fan-out leaves rows behind, so the side measured second would otherwise pay for the
 * first's. The claims run first: the fan-outs leave their deliveries pending.
 */
async function idleEndpointCosts(setup: Setup): Promise<IdleEndpointCosts> {
  await withTransaction(setup.pool, (client) => appendDomainEvents(client, eventsFor(setup, 0, CLAIM_DUE)));
  await fanOutEvents(setup.pool, new Date(), CLAIM_DUE);
  await insertIdleEndpoints(setup.pool, IDLE_ENDPOINTS, false);
  const samplers = {
    claim: () => claimSamples(setup, CLAIM_SAMPLES / SCALING_TURNS),
    fanOut: () => fanOutSamples(setup, FAN_OUT_SAMPLES / SCALING_TURNS),
  };
  const times = {
    claim: { alone: [] as number[], beside: [] as number[] },
    fanOut: { alone: [] as number[], beside: [] as number[] },
  };
  for (const step of ["claim", "fanOut"] as const) {
    for (let turn = 0; turn < SCALING_TURNS; turn++) {
      for (const enabled of [false, true]) {
        await setup.pool.query("UPDATE webhook_endpoints SET enabled = $1 WHERE id LIKE 'whe_idle_%'", [
          enabled,
        ]);
        await setup.pool.query("ANALYZE webhook_endpoints");
        times[step][enabled ? "beside" : "alone"].push(...(await samplers[step]()));
      }
    }
  }
  return {
    claim: { alone: median(times.claim.alone), beside: median(times.claim.beside) },
    fanOut: { alone: median(times.fanOut.alone), beside: median(times.fanOut.beside) },
  };
}

/** Event insert (createdAt) to first arrival, ms, for events written at a steady RATE per second. */
async function latencies(setup: Setup): Promise<number[]> {
  const job = startJob(setup);
  const total = RATE * LATENCY_SECONDS;
  const started = performance.now();
  const writes: Array<Promise<void>> = [];
  for (let index = 0; index < total; index++) {
    const due = started + (index * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    writes.push(
      withTransaction(setup.pool, (client) => appendDomainEvents(client, eventsFor(setup, index, 1))),
    );
  }
  await Promise.all(writes);
  note(`latency: ${total} events written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await setup.receiver.reached(total);
  await job.stop();
  return [...setup.receiver.first.values()].map(({ at, createdAt }) => at - createdAt).sort((a, b) => a - b);
}

export async function run(emit: Emit): Promise<void> {
  note(`database: ${process.env.DATABASE_URL ? "DATABASE_URL (Postgres)" : "embedded (PGlite)"}`);
  const database = await createTestDatabase();
  const receiver = new Receiver();
  await receiver.start();
  try {
    const masterKey = randomBytes(32);
    const service = webhooksService(database.pool, createSecretBox(masterKey), Date.now, {
      allowLocalReceivers: true,
    });
    const partners = Array.from({ length: ENDPOINTS }, (_, index) => `partner_bench_${index}`);
    const urls = partners.map((partner) => `${receiver.url}/${partner}`);
    const secrets: string[] = [];
    for (const [index, partnerId] of partners.entries()) {
      const created = await service.create(
        { partnerId, environment: "production" },
        { url: urls[index] ?? "" },
      );
      secrets.push(created.signingSecret);
    }
    const setup: Setup = { pool: database.pool, masterKey, receiver, partners, urls, secrets };

    note(
      `throughput: ${EVENTS} events over ${ENDPOINTS} endpoints, ${DEFAULT_PER_ENDPOINT} in flight per endpoint`,
    );
    const rounds: Array<{ bare: BareSide; dispatched: JobSide }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bare = await bareLoopThroughput(setup);
      receiver.reset();
      const dispatched = await dispatcherThroughput(setup, round);
      receiver.reset();
      note(
        `round ${round + 1}: ratio ${(dispatched.throughput / bare.throughput).toFixed(2)}, CPU per delivery: this process ${bare.processCpu.toFixed(0)} µs bare, ${dispatched.processCpu.toFixed(0)} µs the job, the database ${dispatched.databaseCpu?.toFixed(0) ?? "?"} µs; WAL ${dispatched.walBytes.toFixed(0)} bytes`,
      );
      rounds.push({ bare, dispatched });
    }
    emit("bare_post_throughput", median(rounds.map((r) => r.bare.throughput)), "deliveries/s");
    emit("dispatcher_throughput", median(rounds.map((r) => r.dispatched.throughput)), "deliveries/s");
    emit(
      "dispatcher_vs_bare_ratio",
      median(rounds.map((r) => r.dispatched.throughput / r.bare.throughput)),
      "ratio",
    );
    emit("bare_process_cpu_per_delivery", median(rounds.map((r) => r.bare.processCpu)), "µs/delivery");
    emit(
      "dispatcher_process_cpu_per_delivery",
      median(rounds.map((r) => r.dispatched.processCpu)),
      "µs/delivery",
    );
    const databaseCpu = rounds.flatMap((r) => r.dispatched.databaseCpu ?? []);
    if (databaseCpu.length > 0)
      emit("dispatcher_database_cpu_per_delivery", median(databaseCpu), "µs/delivery");
    emit(
      "dispatcher_wal_bytes_per_delivery",
      median(rounds.map((r) => r.dispatched.walBytes)),
      "bytes/delivery",
    );

    note(`latency: ${RATE} events/s for ${LATENCY_SECONDS} s`);
    const samples = await latencies(setup);
    emit("event_to_first_attempt_p50", percentile(samples, 0.5), "ms");
    emit("event_to_first_attempt_p99", percentile(samples, 0.99), "ms");
    emit("event_to_first_attempt_max", samples[samples.length - 1] ?? Number.NaN, "ms");

    note(
      `idle endpoints: a claim of ${CLAIM_DUE} due and a fan-out of ${FAN_OUT_EVENTS} events over ${ENDPOINTS} endpoints, alone and beside ${IDLE_ENDPOINTS} idle ones`,
    );
    const { claim, fanOut } = await idleEndpointCosts(setup);
    emit(`claim_ms_${ENDPOINTS}_endpoints`, claim.alone, "ms");
    emit(`claim_ms_with_${IDLE_ENDPOINTS}_idle_endpoints`, claim.beside, "ms");
    emit("claim_idle_endpoints_ratio", claim.beside / claim.alone, "ratio");
    emit(`fan_out_ms_${ENDPOINTS}_endpoints`, fanOut.alone, "ms");
    emit(`fan_out_ms_with_${IDLE_ENDPOINTS}_idle_endpoints`, fanOut.beside, "ms");
    emit("fan_out_idle_endpoints_ratio", fanOut.beside / fanOut.alone, "ratio");
  } finally {
    await receiver.stop();
    await database.close();
    await stopSharedEmbeddedServer();
  }
}
