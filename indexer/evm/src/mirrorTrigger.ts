// SQL that keeps the API's read model (`chain_reservations`, schema IDENTITY_MIRROR_SCHEMA) equal to this
// deployment's `reservation` table. A row trigger runs inside Ponder's own transactions, so the mirror
// commits together with Ponder's checkpoint and follows Ponder's reorg reverts (which delete and restore
// rows of `reservation`) without any code of ours seeing the reorg.

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Statements that create (or replace) the trigger; idempotent, run in the setup handler of each chain. */
export function mirrorTriggerStatements(deploymentSchema: string, mirrorSchema: string): string[] {
  const source = `${quoteIdentifier(deploymentSchema)}.reservation`;
  const target = `${quoteIdentifier(mirrorSchema)}.chain_reservations`;
  const fn = `${quoteIdentifier(deploymentSchema)}.mirror_reservation_to_read_model`;
  return [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM ${target}
     WHERE chain = OLD.chain AND name_hash = OLD.name_hash AND ticker_hash = OLD.ticker_hash;
    RETURN OLD;
  END IF;
  INSERT INTO ${target} (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
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
    `DROP TRIGGER IF EXISTS mirror_to_read_model ON ${source}`,
    `CREATE TRIGGER mirror_to_read_model AFTER INSERT OR UPDATE OR DELETE ON ${source}
       FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
  ];
}
