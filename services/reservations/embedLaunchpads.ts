// The embed allowlist: launchpads whose public `launchpad` value may prepare reservations from a browser (no API
// key there), each bound to the partner its fees are attributed to. Operators manage it, audited.
import type { Pool } from "pg";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";

export const LAUNCHPAD_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;

export interface EmbedLaunchpad {
  launchpad: string;
  partnerId: string;
  disabledAt: Date | null;
}

/** The partner of an allowlisted, enabled launchpad; undefined otherwise. */
export async function embedPartnerOf(pool: Pool, launchpad: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ partner_id: string }>(
    "SELECT partner_id FROM embed_launchpads WHERE launchpad = $1 AND disabled_at IS NULL",
    [launchpad],
  );
  return rows[0]?.partner_id;
}

/** Allows (or re-enables, rebinding its partner) a launchpad. */
export async function allowEmbedLaunchpad(pool: Pool, launchpad: string, partnerId: string, by: Actor) {
  if (!LAUNCHPAD_PATTERN.test(launchpad)) {
    throw new TypeError(
      "launchpad must be 2-63 lowercase letters, digits or dashes, starting with a letter or digit",
    );
  }
  await withTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO embed_launchpads (launchpad, partner_id, created_by) VALUES ($1, $2, $3)
       ON CONFLICT (launchpad) DO UPDATE SET partner_id = $2, disabled_at = NULL, disabled_by = NULL`,
      [launchpad, partnerId, by.actor],
    );
    await appendAudit(client, {
      ...by,
      action: "embed.allow",
      subject: `launchpad:${launchpad}`,
      details: { partnerId },
    });
  });
}

/** Stops a launchpad's embedded prepares at once; false when it was not allowed. */
export async function disableEmbedLaunchpad(pool: Pool, launchpad: string, by: Actor): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rowCount } = await client.query(
      `UPDATE embed_launchpads SET disabled_at = now(), disabled_by = $2
        WHERE launchpad = $1 AND disabled_at IS NULL`,
      [launchpad, by.actor],
    );
    if (rowCount === 0) return false;
    await appendAudit(client, { ...by, action: "embed.disable", subject: `launchpad:${launchpad}` });
    return true;
  });
}

export async function listEmbedLaunchpads(pool: Pool): Promise<EmbedLaunchpad[]> {
  const { rows } = await pool.query<{ launchpad: string; partner_id: string; disabled_at: Date | null }>(
    "SELECT launchpad, partner_id, disabled_at FROM embed_launchpads ORDER BY launchpad",
  );
  return rows.map((row) => ({
    launchpad: row.launchpad,
    partnerId: row.partner_id,
    disabledAt: row.disabled_at,
  }));
}
