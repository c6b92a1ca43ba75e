// SQL that keeps the API's read model (schema SERVICE_SCHEMA) equal to this deployment: `chain_reservations`
// to its `reservation` table and the indexed position in `chain_checkpoints` to Ponder's `_ponder_checkpoint`. Row
// triggers run inside Ponder's own transactions, so the mirror's rows and its indexed position commit together,
// and they follow Ponder's reverts (its reorg handling and the crash recovery of every start, which delete and
// restore rows of `reservation` without touching `_ponder_checkpoint`) without any code of ours seeing them.

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A Ponder checkpoint string's block number and block time, in SQL (decodePonderCheckpoint in run.ts). */
const checkpointBlock = (checkpoint: string) => `substr(${checkpoint}, 27, 16)::bigint`;
const checkpointTime = (checkpoint: string) => `to_timestamp(substr(${checkpoint}, 1, 10)::bigint)`;

/** Statements that create (or replace) the triggers; idempotent, run in the setup handler of each chain. */
export function mirrorTriggerStatements(deploymentSchema: string, serviceSchema: string): string[] {
  const schema = quoteIdentifier(deploymentSchema);
  const reservations = `${quoteIdentifier(serviceSchema)}.chain_reservations`;
  const checkpoints = `${quoteIdentifier(serviceSchema)}.chain_checkpoints`;
  const ponderCheckpoints = `${schema}._ponder_checkpoint`;
  return [
    // Each chain runs this setup in its own transaction, at the same time: one after the other, or a CREATE OR
    // REPLACE meets the other's uncommitted one.
    `SELECT pg_advisory_xact_lock(hashtext(${quoteLiteral(`${deploymentSchema}.mirror_to_read_model`)}))`,
    `CREATE OR REPLACE FUNCTION ${schema}.mirror_reservation_to_read_model() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  safe text;
  safe_number bigint;
BEGIN
  -- Indexing only ever adds blocks: a deleted row, or one set back to an older block, is a revert. The mirror then
  -- holds the chain only up to Ponder's safe checkpoint (a reorg's common ancestor is at or past it), and it may lack
  -- a reservation it showed before until Ponder has indexed again as far as it had (rewound_from).
  IF TG_OP = 'DELETE' OR NEW.block_number < OLD.block_number THEN
    SELECT safe_checkpoint INTO safe FROM ${ponderCheckpoints} WHERE chain_name = OLD.chain;
    safe_number := COALESCE(${checkpointBlock("safe")}, OLD.block_number - 1);
    UPDATE ${checkpoints} SET
      rewound_from = GREATEST(rewound_from, indexed_number),
      indexed_number = LEAST(indexed_number, safe_number),
      indexed_block_time = CASE WHEN safe_number < indexed_number THEN ${checkpointTime("safe")}
                                ELSE indexed_block_time END,
      indexed_at = now()
     WHERE chain = OLD.chain;
  END IF;
  IF TG_OP = 'DELETE' THEN
    DELETE FROM ${reservations}
     WHERE chain = OLD.chain AND name_hash = OLD.name_hash AND ticker_hash = OLD.ticker_hash;
    RETURN OLD;
  END IF;
  INSERT INTO ${reservations} (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
                               reserved_at, expires_at, duration_seconds, fee_paid, partner_ref, tx_hash,
                               block_number, updated_at)
  VALUES (NEW.chain, NEW.name_hash, NEW.ticker_hash, NEW.normalized_name, NEW.normalized_ticker, NEW.launcher,
          to_timestamp(NEW.reserved_at), to_timestamp(NEW.expires_at), NEW.duration_seconds, NEW.fee_paid,
          NEW.partner_ref, NEW.tx_hash, NEW.block_number, now())
  ON CONFLICT (chain, name_hash, ticker_hash) DO UPDATE SET
    normalized_name = EXCLUDED.normalized_name, normalized_ticker = EXCLUDED.normalized_ticker,
    launcher = EXCLUDED.launcher, reserved_at = EXCLUDED.reserved_at, expires_at = EXCLUDED.expires_at,
    duration_seconds = EXCLUDED.duration_seconds, fee_paid = EXCLUDED.fee_paid,
    partner_ref = EXCLUDED.partner_ref, tx_hash = EXCLUDED.tx_hash, block_number = EXCLUDED.block_number,
    updated_at = now();
  RETURN NEW;
END
$fn$`,
    `DROP TRIGGER IF EXISTS mirror_to_read_model ON ${schema}.reservation`,
    `CREATE TRIGGER mirror_to_read_model AFTER INSERT OR UPDATE OR DELETE ON ${schema}.reservation
       FOR EACH ROW EXECUTE FUNCTION ${schema}.mirror_reservation_to_read_model()`,
    // Ponder sets latest_checkpoint in the transaction that wrote the rows up to it, never ahead of them, and
    // nowhere else (finalizing sets only the other two checkpoints, which must not undo a rewind). It may set the
    // value it already holds: a reorg's replacement block of the same height and time has the same checkpoint.
    `CREATE OR REPLACE FUNCTION ${schema}.mirror_checkpoint_to_read_model() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO ${checkpoints} (chain, family, indexed_number, indexed_block_time, indexed_at)
  VALUES (NEW.chain_name, 'evm', ${checkpointBlock("NEW.latest_checkpoint")},
          ${checkpointTime("NEW.latest_checkpoint")}, now())
  ON CONFLICT (chain) DO UPDATE SET family = EXCLUDED.family, indexed_number = EXCLUDED.indexed_number,
    indexed_block_time = EXCLUDED.indexed_block_time, indexed_at = EXCLUDED.indexed_at;
  RETURN NEW;
END
$fn$`,
    `DROP TRIGGER IF EXISTS mirror_to_read_model ON ${ponderCheckpoints}`,
    `CREATE TRIGGER mirror_to_read_model AFTER INSERT OR UPDATE OF latest_checkpoint ON ${ponderCheckpoints}
       FOR EACH ROW EXECUTE FUNCTION ${schema}.mirror_checkpoint_to_read_model()`,
  ];
}
