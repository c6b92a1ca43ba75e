// Partners as a table: the migration backfills one partner per partner_id of the keys that existed, a key is
// always issued to a partner (a new one, or an existing one that gains the key's environment), and the revenue
// share of a prepare reads the partner's own row (split and the environment's integration start).
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import pg from "pg";
import { revenueShareSnapshot } from "../../../core/reservation";
import { partnersService } from "../../../services/partners";
import { createApiKey } from "../../../services/partners/apiKeyStore";
import { findPartner, shareTermsOf } from "../../../services/partners/partnerStore";
import { quoteIdentifier } from "../../../storage/database";
import { migrate, readMigrations } from "../../../storage/migrate";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";

const DAY_MS = 86_400_000;

describe("partners: the partner table", function () {
  this.timeout(60_000);
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  describe("migration backfill from api_keys", () => {
    const schema = `backfill_${randomBytes(5).toString("hex")}`;
    let pool: pg.Pool;
    before(async () => {
      await db.pool.query(`CREATE SCHEMA ${quoteIdentifier(schema)}`);
      // A SET, not the startup `options`: the embedded database has one session for every connection and
      // takes no startup options, so the suite's own search path comes back in `after`.
      pool = new pg.Pool({ connectionString: db.url, max: 1 });
      pool.on("connect", (client) => void client.query(`SET search_path TO ${quoteIdentifier(schema)}`));
      await migrate(
        pool,
        readMigrations().filter((migration) => migration.version < 13),
      );
      const key = (
        id: string,
        environment: string,
        partner: string,
        created: string,
        contact: string | null,
      ) =>
        pool.query(
          `INSERT INTO api_keys (key_id, secret_hash, display_prefix, environment, partner_id, organization, email,
             email_verified, scopes, rate_limit_per_minute, created_at, created_by)
           VALUES ($1, $2, 'svc_…', $3, $4, $5, $6, $7, '{launch:validate}', $8, $9, 'test')`,
          [
            id,
            randomBytes(32),
            environment,
            partner,
            contact === null ? null : `${contact} Ltd`,
            contact === null ? null : `${contact}@example.com`,
            contact === "verified",
            environment === "sandbox" ? 60 : 300,
            created,
          ],
        );
      await key("key_a1", "production", "ptn_a", "2026-01-05T00:00:00Z", null);
      await key("key_a2", "sandbox", "ptn_a", "2026-01-01T00:00:00Z", "first");
      await key("key_a3", "sandbox", "ptn_a", "2026-01-03T00:00:00Z", "later");
      await key("key_b1", "sandbox", "ptn_b", "2026-02-01T00:00:00Z", "verified");
      await migrate(pool);
    });
    after(async () => {
      await pool.end();
      await db.pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`);
      await db.pool.query(`SET search_path TO ${quoteIdentifier(db.schema)}`);
    });

    it("makes one partner per partner_id with its environments, first keys and earliest contact", async () => {
      const a = await findPartner(pool, "ptn_a");
      expect(a).to.deep.include({
        organization: "first Ltd",
        contactEmail: "first@example.com",
        emailVerified: false,
        environments: ["production", "sandbox"],
        partnerBps: 6000,
        serviceBps: 4000,
        payoutRouting: "held",
      });
      expect(a?.integration.sandbox?.startedAt.toISOString()).to.equal("2026-01-01T00:00:00.000Z");
      expect(a?.integration.sandbox?.introductoryEndsAt.toISOString()).to.equal("2026-01-31T00:00:00.000Z");
      expect(a?.integration.production?.startedAt.toISOString()).to.equal("2026-01-05T00:00:00.000Z");
      const b = await findPartner(pool, "ptn_b");
      expect(b).to.deep.include({
        emailVerified: true,
        environments: ["sandbox"],
        integration: b?.integration,
      });
      expect(b?.integration.production).to.equal(null);
    });

    it("keeps the contact only on the partner and ties every key to one", async () => {
      const { rows } = await pool.query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'api_keys'",
        [schema],
      );
      expect(rows.map((row) => row.column_name)).to.not.include.members([
        "organization",
        "email",
        "email_verified",
      ]);
      let failure: unknown;
      try {
        await pool.query(
          `INSERT INTO api_keys (key_id, secret_hash, display_prefix, environment, partner_id, scopes,
             rate_limit_per_minute, created_by) VALUES ('key_x', $1, 'x', 'sandbox', 'ptn_nobody', '{}', 60, 'test')`,
          [randomBytes(32)],
        );
      } catch (error) {
        failure = error;
      }
      expect((failure as { code?: string }).code).to.equal("23503");
    });
  });

  describe("issuing keys to partners", () => {
    it("a key without a partner makes a new partner with sandbox access starting now", async () => {
      const { record } = await createApiKey(db.pool, {
        environment: "sandbox",
        scopes: ["launch:validate"],
        rateLimitPerMinute: 60,
        label: "",
        createdBy: "self-serve",
        organization: "Acme",
        email: "dev@acme.example",
      });
      const service = partnersService({
        pool: db.pool,
        box: undefined,
        mail: undefined,
        now: Date.now,
        log: () => undefined,
      });
      const partner = await service.partner(record.partnerId);
      expect(partner).to.deep.include({
        partnerId: record.partnerId,
        organization: "Acme",
        contactEmail: "dev@acme.example",
        emailVerified: false,
        environments: ["sandbox"],
        partnerBps: 6000,
      });
      expect(partner?.integration.sandbox?.startedAt.getTime()).to.equal(record.createdAt.getTime());
      expect(partner?.integration.production).to.equal(null);
    });

    it("a key for an existing partner adds its environment once and keeps the partner's contact", async () => {
      const first = await createApiKey(db.pool, {
        environment: "sandbox",
        scopes: ["launch:validate"],
        rateLimitPerMinute: 60,
        label: "",
        createdBy: "self-serve",
        organization: "Beta",
        email: "ops@beta.example",
      });
      const partnerId = first.record.partnerId;
      const live = await createApiKey(db.pool, {
        environment: "production",
        scopes: ["launch:validate"],
        rateLimitPerMinute: 300,
        label: "live",
        createdBy: "operator",
        partnerId,
        organization: "Someone Else",
        email: "attacker@example.com",
      });
      await createApiKey(db.pool, {
        environment: "production",
        scopes: ["launch:validate"],
        rateLimitPerMinute: 300,
        label: "live 2",
        createdBy: "operator",
        partnerId,
      });
      const partner = await findPartner(db.pool, partnerId);
      expect(partner).to.deep.include({
        organization: "Beta",
        contactEmail: "ops@beta.example",
        environments: ["sandbox", "production"],
      });
      expect(partner?.integration.production?.startedAt.getTime()).to.equal(live.record.createdAt.getTime());
      expect(partner?.integration.sandbox?.startedAt.getTime()).to.equal(first.record.createdAt.getTime());
    });
  });

  describe("the revenue share reads the partner's row", () => {
    it("takes the row's split once the environment's introductory period is over", async () => {
      const { record } = await createApiKey(db.pool, {
        environment: "sandbox",
        scopes: ["launch:validate"],
        rateLimitPerMinute: 60,
        label: "",
        createdBy: "self-serve",
      });
      await db.pool.query(
        `UPDATE partners SET partner_bps = 7000, sandbox_integration_started_at = now() - interval '40 days'
         WHERE partner_id = $1`,
        [record.partnerId],
      );
      const partner = await findPartner(db.pool, record.partnerId);
      const now = new Date();
      const sandbox = revenueShareSnapshot(record.partnerId, shareTermsOf(partner, "sandbox"), now);
      expect(sandbox).to.include({ partnerBps: 7000, serviceBps: 3000, introductory: false });
      // No production integration: nothing accrues to the partner there.
      const production = revenueShareSnapshot(record.partnerId, shareTermsOf(partner, "production"), now);
      expect(production).to.include({ partnerBps: 0, serviceBps: 10_000 });
      await db.pool.query("UPDATE partners SET sandbox_integration_started_at = $2 WHERE partner_id = $1", [
        record.partnerId,
        new Date(now.getTime() - 29 * DAY_MS),
      ]);
      const fresh = revenueShareSnapshot(
        record.partnerId,
        shareTermsOf(await findPartner(db.pool, record.partnerId), "sandbox"),
        now,
      );
      expect(fresh).to.include({ partnerBps: 0, introductory: true, standardPartnerBps: 7000 });
    });

    it("an unknown partner gets no share", () => {
      expect(shareTermsOf(undefined, "sandbox")).to.equal(null);
    });
  });
});
