// The decision record statement beside a long history: the service's recorder writing 16-decision batches into a
// decisions table that already holds `historyRows` records, with the service's request ids (time-ordered) against
// random version 4 ids, each side in a schema of its own, in alternating turns. The validate bench's own run
// starts from an empty table; a production table only grows.
import { randomUUID } from "node:crypto";
import { DECISION_SIGNATURE_ALG, DECISION_VERSION, type SignedDecision } from "../../core/decision";
import { decisionRecorder } from "../../services/identity/decisionRecorder";
import { newDecisionRequestId } from "../../services/identity/requestIds";
import { type Database, openDatabase, quoteIdentifier } from "../../storage/database";
import { postgresCpu, postgresCpuMicrosPerRequest } from "./postgresCpu";
import { median } from "./stats";
import { walBytesSince, walPosition } from "./walBytes";

const BATCH = 16;
const WARM_BATCHES = 100;
const MEASURED_BATCHES = 1_500;
const TURNS = 3;

/**
 * Each side's ids: as it mints them, and its history's in SQL (`h` is the row's minting time, 12 hex digits of
 * milliseconds; the service's history is in minting order).
 */
const SIDES = {
  service: {
    mint: newDecisionRequestId,
    historyIdSql: `'dec_' || substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(gen_random_uuid()::text, 16)`,
  },
  random: {
    mint: () => `dec_${randomUUID()}`,
    historyIdSql: `'dec_' || gen_random_uuid()`,
  },
} as const;

type Side = keyof typeof SIDES;

export interface RecordFigures {
  databaseCpuPerRow: number | undefined;
  walBytesPerRow: number;
}

function decisionOf(requestId: string, index: number): SignedDecision {
  const issuedAt = new Date();
  return {
    version: DECISION_VERSION,
    requestId,
    identityKey: `BENCH COIN ${index}::BNC`,
    normalizedName: `BENCH COIN ${index}`,
    normalizedTicker: "BNC",
    chain: "hardhat",
    launchpadId: "bench-pad",
    launcher: `0x${"ab".repeat(20)}`,
    decision: "allow",
    reason: "available",
    issuedAt: issuedAt.toISOString(),
    expiresAt: new Date(issuedAt.getTime() + 300_000).toISOString(),
    environment: "production",
    signature: `${"A".repeat(86)}==`,
    signatureAlg: DECISION_SIGNATURE_ALG,
    keyId: "bench-kid",
  };
}

async function fillHistory(database: Database, side: Side, rows: number): Promise<void> {
  // Milliseconds in the past, one per row, as 12 hex digits (`h`): the history was minted before the bench.
  await database.pool.query(
    `INSERT INTO decisions (request_id, environment, partner_id, api_key_id, status, signed)
     SELECT ${SIDES[side].historyIdSql}, 'production', 'bench-partner', 'bench-key', 'available', '{}'::jsonb
       FROM (SELECT g, lpad(to_hex((extract(epoch FROM now()) * 1000)::bigint - $1::bigint + g), 12, '0') AS h
               FROM generate_series(1, $1::bigint) AS g) AS minted`,
    [rows],
  );
  await database.pool.query("VACUUM ANALYZE decisions");
}

async function turn(database: Database, side: Side): Promise<RecordFigures> {
  const recorder = decisionRecorder(database.pool, () => true);
  let index = 0;
  const batch = () =>
    Promise.all(
      Array.from({ length: BATCH }, () => {
        index += 1;
        return recorder.record({
          decision: decisionOf(SIDES[side].mint(), index),
          partnerId: "bench-partner",
          apiKeyId: "bench-key",
          status: "available",
          events: [],
        });
      }),
    );
  for (let warm = 0; warm < WARM_BATCHES; warm += 1) await batch();
  const walBefore = await walPosition(database.pool);
  const cpuBefore = postgresCpu();
  for (let measured = 0; measured < MEASURED_BATCHES; measured += 1) await batch();
  const cpuAfter = postgresCpu();
  const rows = MEASURED_BATCHES * BATCH;
  return {
    databaseCpuPerRow: postgresCpuMicrosPerRequest(cpuBefore, cpuAfter, rows),
    walBytesPerRow: (await walBytesSince(database.pool, walBefore)) / rows,
  };
}

/** Each side's figures, median of its turns; the sides' schemas are dropped afterwards. */
export async function recordBesideHistory(
  url: string,
  historyRows: number,
): Promise<Record<Side, RecordFigures>> {
  const opened: { side: Side; database: Database; schema: string }[] = [];
  try {
    for (const side of ["service", "random"] as const) {
      const schema = `bench_record_${side}_${randomUUID().slice(0, 8)}`;
      const database = await openDatabase({ kind: "postgres", url, schema });
      opened.push({ side, database, schema });
      await fillHistory(database, side, historyRows);
    }
    const turns: Record<Side, RecordFigures[]> = { service: [], random: [] };
    for (let round = 0; round < TURNS; round += 1) {
      for (const { side, database } of opened) turns[side].push(await turn(database, side));
    }
    const figures = (side: Side): RecordFigures => {
      const cpu = turns[side].flatMap((figure) => figure.databaseCpuPerRow ?? []);
      return {
        databaseCpuPerRow: cpu.length > 0 ? median(cpu) : undefined,
        walBytesPerRow: median(turns[side].map((figure) => figure.walBytesPerRow)),
      };
    };
    return { service: figures("service"), random: figures("random") };
  } finally {
    for (const { database, schema } of opened) {
      await database.pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`);
      await database.close();
    }
  }
}
