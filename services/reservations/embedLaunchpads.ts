// The embed allowlist: launchpads whose public `launchpad` value may prepare reservations from a browser (no API
// key there). Fees are attributed to the partner the id is bound to (services/partners/launchpads): the
// allowlist says only whether the id may embed, and from which web origins its pages are served (the only
// origins the embed endpoints answer CORS for). Operators manage it, audited.
import type { Pool } from "pg";
import type { Environment } from "../../core/environment";
import { webOriginProblem } from "../../core/web/origin";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";
import { bindLaunchpadIn, launchpadPartnerSql } from "../partners/launchpads";

export interface EmbedLaunchpad {
  launchpad: string;
  /** The partner the id is bound to in production, or null when it is unbound. */
  partnerId: string | null;
  disabledAt: Date | null;
  /** Registered web origins, sorted. */
  origins: string[];
}

/** The partner of an allowlisted, enabled launchpad bound in `environment`; undefined otherwise. */
export async function embedPartnerOf(
  pool: Pool,
  environment: Environment,
  launchpad: string,
): Promise<string | undefined> {
  const { rows } = await pool.query<{ partner_id: string | null }>(
    `SELECT ${launchpadPartnerSql("$2", "embed.launchpad")} AS partner_id
       FROM embed_launchpads AS embed WHERE embed.launchpad = $1 AND embed.disabled_at IS NULL`,
    [launchpad, environment],
  );
  return rows[0]?.partner_id ?? undefined;
}

/** Allows (or re-enables) a launchpad and binds its id to the partner (launchpads:bind), in one transaction. */
export async function allowEmbedLaunchpad(pool: Pool, launchpad: string, partnerId: string, by: Actor) {
  await withTransaction(pool, async (client) => {
    await bindLaunchpadIn(client, launchpad, partnerId, by);
    await client.query(
      `INSERT INTO embed_launchpads (launchpad, created_by) VALUES ($1, $2)
       ON CONFLICT (launchpad) DO UPDATE SET disabled_at = NULL, disabled_by = NULL`,
      [launchpad, by.actor],
    );
    await appendAudit(client, {
      ...by,
      action: "embed.allow",
      subject: `launchpad:${launchpad}`,
      details: { partnerId },
    });
  });
}

/** Stops a launchpad's embedded prepares at once (its binding stays); false when it was not allowed. */
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
  const { rows } = await pool.query<{
    launchpad: string;
    partner_id: string | null;
    disabled_at: Date | null;
    origins: string[];
  }>(
    `SELECT embed.launchpad, ${launchpadPartnerSql("'production'", "embed.launchpad")} AS partner_id, embed.disabled_at,
       ARRAY(SELECT o.origin FROM embed_launchpad_origins o WHERE o.launchpad = embed.launchpad ORDER BY o.origin)
         AS origins
       FROM embed_launchpads AS embed ORDER BY embed.launchpad`,
  );
  return rows.map((row) => ({
    launchpad: row.launchpad,
    partnerId: row.partner_id,
    disabledAt: row.disabled_at,
    origins: row.origins,
  }));
}

/** Whether `origin` is registered for an allowlisted, enabled launchpad (the embed endpoints' CORS). */
export async function embedOriginAllowed(pool: Pool, origin: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    `SELECT 1 FROM embed_launchpad_origins o JOIN embed_launchpads l USING (launchpad)
     WHERE o.origin = $1 AND l.disabled_at IS NULL LIMIT 1`,
    [origin],
  );
  return rowCount === 1;
}

/**
 * Registers a web origin for an allowlisted launchpad (TypeError when `origin` is not one, or the launchpad is
 * not allowlisted); false when it was already registered.
 */
export async function addEmbedOrigin(pool: Pool, launchpad: string, origin: string, by: Actor) {
  const problem = webOriginProblem(origin);
  if (problem !== undefined) throw new TypeError(`--origin: ${problem}`);
  return withTransaction(pool, async (client) => {
    const known = await client.query("SELECT 1 FROM embed_launchpads WHERE launchpad = $1", [launchpad]);
    if (known.rowCount === 0) {
      throw new TypeError(`Launchpad ${launchpad} is not allowlisted; allow it first (embed:allow).`);
    }
    const { rowCount } = await client.query(
      `INSERT INTO embed_launchpad_origins (launchpad, origin, created_by) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [launchpad, origin, by.actor],
    );
    if (rowCount === 0) return false;
    await appendAudit(client, {
      ...by,
      action: "embed.origin_add",
      subject: `launchpad:${launchpad}`,
      details: { origin },
    });
    return true;
  });
}

/** Unregisters a launchpad's web origin: browsers on it lose the embed endpoints at once; false when not registered. */
export async function removeEmbedOrigin(pool: Pool, launchpad: string, origin: string, by: Actor) {
  return withTransaction(pool, async (client) => {
    const { rowCount } = await client.query(
      "DELETE FROM embed_launchpad_origins WHERE launchpad = $1 AND origin = $2",
      [launchpad, origin],
    );
    if (rowCount === 0) return false;
    await appendAudit(client, {
      ...by,
      action: "embed.origin_remove",
      subject: `launchpad:${launchpad}`,
      details: { origin },
    });
    return true;
  });
}
