// The webhook crash test: `npm run worker` as real processes, two at once on one Postgres schema,
// killed with SIGKILL mid-stream and restarted, while 1,000 outbox events go out to a local receiver that
// verifies every signature. Every event must arrive at least once, signed; duplicates are counted and bounded.
//
// The bound: an event's delivery reaches the receiver twice only when an attempt's outcome went unrecorded,
// which happens when its worker was killed before recording it, when its lease ran out under a live worker
// (which logs "lease lost"), or when recording failed (logged: "its lease runs out"). A worker never has more
// than DEFAULT_MAX_IN_FLIGHT attempts under way, and an unrecorded attempt brings at most one more arrival
// (the next attempt is recorded, or is itself cut by a later kill and counted there). So:
// duplicates <= killed workers x DEFAULT_MAX_IN_FLIGHT + those logged lines.
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { createSecretBox, generateMasterKey, parseMasterKey } from "../../core/secrets/secretBox";
import { webhooksService } from "../../services/webhooks";
import { DEFAULT_MAX_IN_FLIGHT, UNRECORDED_PER_SLOT } from "../../services/webhooks/dispatcher";
import { appendDomainEvents, type DomainEvent } from "../../storage/domainEvents";
import { withTransaction } from "../../storage/transaction";
import { type RoleProcess, roleDatabaseUrl, startRoleProcess } from "../support/roleProcess";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

const EVENTS = 1000;
const PARTNERS = 4;
const BATCH = 50;
const BATCH_PAUSE_MS = 250;
const AHEAD = 150;
/** Short, so a killed worker's claims come back within seconds (the production default is 60 s). */
const LEASE_MS = 2500;
/** The receiver answers after this long, so a kill always finds attempts under way. */
const ANSWER_DELAY_MS = 100;
/** Unique arrivals at which workers are killed: [arrivals, which worker slots]. */
const KILLS: Array<[number, number[]]> = [
  [100, [0]],
  [250, [1]],
  [450, [0]],
  [650, [0, 1]],
];
const STARTED_LINE = "delivering webhooks";
const note = (line: string) => console.log(`      ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Arrival {
  id: string;
  seq: number;
  signed: boolean;
}

/** X-Service-Signature checked from scratch (HMAC-SHA256 over `<t>.<raw body>`, any v1, 300 s tolerance). */
function validSignature(header: string | undefined, rawBody: string, secret: string): boolean {
  const parts = (header ?? "").split(",").map((part) => part.split("="));
  const t = parts.find(([key]) => key === "t")?.[1];
  if (t === undefined || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest();
  return parts.some(([key, value]) => {
    if (key !== "v1" || value === undefined) return false;
    const given = Buffer.from(value, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe("worker: webhook delivery survives SIGKILL (two worker processes, 1,000 events)", function () {
  this.timeout(180_000);
  let db: TestDatabase;
  let folder: string;
  let server: Server;
  const workers: Array<RoleProcess | undefined> = [undefined, undefined];
  const everyWorker: RoleProcess[] = [];

  after(async () => {
    await Promise.all(workers.map((worker) => worker?.kill()));
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (folder) rmSync(folder, { recursive: true, force: true });
    await db?.close();
  });

  it("delivers every event at least once, with a valid signature, and reports the duplicates", async () => {
    db = await createTestDatabase();
    folder = mkdtempSync(join(tmpdir(), "svc-webhook-crash-"));
    const manifestPath = join(folder, "deployment.json");
    writeFileSync(manifestPath, JSON.stringify({ evm: [], solana: [] }));
    const masterKey = generateMasterKey();

    const arrivals: Arrival[] = [];
    const unique = new Set<string>();
    const secrets = new Map<string, string>();
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const rawBody = Buffer.concat(chunks).toString("utf8");
        const secret = secrets.get(request.url ?? "") ?? "";
        const signed = validSignature(request.headers["x-service-signature"] as string, rawBody, secret);
        const envelope = JSON.parse(rawBody) as { id: string; data: { seq: number } };
        arrivals.push({ id: envelope.id, seq: envelope.data.seq, signed });
        unique.add(envelope.id);
        setTimeout(() => response.writeHead(200).end(), ANSWER_DELAY_MS);
      });
    });
    // Idle keep-alive sockets outlive the test, so no attempt meets a socket the server just closed.
    server.keepAliveTimeout = 120_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;

    const service = webhooksService(db.pool, createSecretBox(parseMasterKey(masterKey)), Date.now, {
      allowLocalReceivers: true,
    });
    const partners = Array.from({ length: PARTNERS }, (_, index) => `partner_crash_${index}`);
    for (const partnerId of partners) {
      const path = `/${partnerId}`;
      const created = await service.create(
        { partnerId, environment: "production" },
        { url: `http://127.0.0.1:${port}${path}` },
      );
      secrets.set(path, created.signingSecret);
    }

    const env = {
      DATABASE_URL: roleDatabaseUrl(db),
      DEPLOYMENT_MANIFEST: manifestPath,
      MASTER_KEY: masterKey,
      DATA_DIR: folder,
      WEBHOOK_ALLOW_LOCALHOST: "true",
      WEBHOOK_LEASE_MS: String(LEASE_MS),
    };
    const running = [false, false];
    const restarts: Array<Promise<void>> = [];
    const start = async (slot: number): Promise<void> => {
      const worker = startRoleProcess("worker/main.ts", env);
      workers[slot] = worker;
      everyWorker.push(worker);
      await worker.printed(STARTED_LINE);
      running[slot] = true;
    };
    let killed = 0;
    let inserted = 0;
    /** Per kill: events written but not yet arrived, and deliveries under a live lease, just before it. */
    const atKills: Array<{ backlog: number; leased: number }> = [];
    const victimsRunning = (index: number) => (KILLS[index]?.[1] ?? []).every((slot) => running[slot]);
    // One kill at a time, once its victims are running and the arrivals reach its mark; restarts run beside.
    const chaos = async () => {
      for (const [index, [mark, slots]] of KILLS.entries()) {
        // Past the mark, not at it: the outbox may have stopped at the mark while the victims restarted.
        while (!victimsRunning(index) || unique.size <= mark) await sleep(5);
        const { rows } = await db.pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM webhook_deliveries WHERE leased_until > now()",
        );
        atKills.push({ backlog: inserted - unique.size, leased: rows[0]?.n ?? 0 });
        for (const slot of slots) running[slot] = false;
        await Promise.all(slots.map((slot) => workers[slot]?.kill()));
        killed += slots.length;
        note(
          `killed worker ${slots.join(" and ")} at ${unique.size} arrivals (${JSON.stringify(atKills.at(-1))})`,
        );
        restarts.push(...slots.map(start));
      }
    };

    await Promise.all([start(0), start(1)]);
    const crashes = chaos();
    for (let first = 0; first < EVENTS; first += BATCH) {
      // Until a kill has happened, the outbox stops at its mark while its victims restart, and at most AHEAD past
      // it once they run: every kill lands mid-stream with attempts under way, however slow a restart is.
      for (;;) {
        const next = atKills.length;
        const mark = KILLS[next]?.[0];
        if (mark === undefined || first < mark + (victimsRunning(next) ? AHEAD : 0)) break;
        await sleep(10);
      }
      const batch: DomainEvent[] = Array.from({ length: BATCH }, (_, offset) => ({
        type: "launch.reported",
        environment: "production",
        partnerId: partners[(first + offset) % PARTNERS] ?? null,
        payload: { seq: first + offset },
      }));
      await withTransaction(db.pool, (client) => appendDomainEvents(client, batch));
      inserted += batch.length;
      await sleep(BATCH_PAUSE_MS);
    }

    const settled = async () => {
      const { rows } = await db.pool.query<{ status: string; n: number }>(
        "SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status",
      );
      return rows;
    };
    for (let waited = 0; ; waited++) {
      const statuses = await settled();
      if (statuses.length === 1 && statuses[0]?.n === EVENTS) break;
      expect(waited, `all delivered within 60 s: ${JSON.stringify(statuses)}`).to.be.below(600);
      await sleep(100);
    }
    await crashes;
    await Promise.all(restarts);
    await Promise.all(workers.map((worker) => worker?.stop()));

    expect(await settled()).to.deep.equal([{ status: "succeeded", n: EVENTS }]);
    const undispatched = await db.pool.query("SELECT 1 FROM domain_events WHERE dispatched_at IS NULL");
    expect(undispatched.rowCount, "every outbox event fanned out").to.equal(0);
    expect(
      arrivals.filter((arrival) => !arrival.signed),
      "every arrival verifies",
    ).to.deep.equal([]);
    const seqs = new Set(arrivals.map((arrival) => arrival.seq));
    const lost = Array.from({ length: EVENTS }, (_, seq) => seq).filter((seq) => !seqs.has(seq));
    expect(lost, "events never delivered").to.deep.equal([]);
    const deliveryIds = (await db.pool.query<{ id: string }>("SELECT id FROM webhook_deliveries")).rows;
    expect(new Set(deliveryIds.map((row) => row.id))).to.deep.equal(unique);

    const duplicates = arrivals.length - unique.size;
    const unrecorded = everyWorker
      .map((worker) => worker.output().match(/lease lost|its lease runs out/g)?.length ?? 0)
      .reduce((sum, n) => sum + n, 0);
    const bound = killed * UNRECORDED_PER_SLOT * DEFAULT_MAX_IN_FLIGHT + unrecorded;
    note(
      `crash test: ${EVENTS} events, ${arrivals.length} arrivals, ${duplicates} duplicates ` +
        `(${killed} workers killed, ${unrecorded} unrecorded outcomes logged by live workers; bound ${bound})`,
    );
    expect(killed).to.equal(5);
    expect(
      atKills.filter((kill) => kill.backlog === 0),
      "kills that found nothing left to deliver",
    ).to.deep.equal([]);
    expect(duplicates).to.be.at.most(bound);
  });
});
