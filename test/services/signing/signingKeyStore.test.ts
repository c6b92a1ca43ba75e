import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { parseConfig } from "../../../config";
import { createSecretBox } from "../../../core/secrets/secretBox";
import type { OperatorContext } from "../../../scripts/operator/command";
import { commands as signingKeyCommands } from "../../../scripts/operator/commands/signing-keys";
import { activeSigners, SignerUnavailableError } from "../../../services/signing/activeSigner";
import {
  ensureSigningKeys,
  KEY_OVERLAP_SECONDS,
  listSigningKeys,
  MIN_KEY_OVERLAP_SECONDS,
  retireSigningKeys,
  revokeSigningKey,
  rotateSigningKey,
  SigningKeyStoreError,
} from "../../../services/signing/signingKeyStore";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";

const BY = { actor: "ops", reason: "drill" };

describe("decisions: signing-key store", () => {
  let db: TestDatabase;
  const masterKey = randomBytes(32);
  const box = createSecretBox(masterKey);

  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => db.close());
  beforeEach(async () => {
    await db.pool.query("DELETE FROM signing_keys; DELETE FROM audit_log");
  });

  const statuses = async () =>
    (await listSigningKeys(db.pool)).map((key) => `${key.environment}:${key.status}`).sort();
  const activeKid = async (environment: "sandbox" | "production") =>
    (await listSigningKeys(db.pool)).find((key) => key.environment === environment && key.status === "active")
      ?.kid ?? null;

  it("creates one active key per environment on first start, and nothing on later starts", async () => {
    expect(await ensureSigningKeys(db.pool, box)).to.have.length(2);
    expect(await ensureSigningKeys(db.pool, box)).to.deep.equal([]);
    expect(await statuses()).to.deep.equal(["production:active", "sandbox:active"]);
  });

  it("every key has a sealed EVM half whose address is published; a key made without one gets it on the next start", async () => {
    await ensureSigningKeys(db.pool, box);
    const { rows } = await db.pool.query<{
      kid: string;
      evm_address: string;
      evm_private_key_encrypted: string;
    }>("SELECT kid, evm_address, evm_private_key_encrypted FROM signing_keys");
    for (const row of rows) {
      expect(row.evm_address).to.match(/^0x[0-9a-fA-F]{40}$/);
      // Sealed: no 32-byte hex private key in the row.
      expect(row.evm_private_key_encrypted).to.match(/^svcbox1\./);
      expect(row.evm_private_key_encrypted).to.not.match(/[0-9a-f]{64}/);
    }
    const production = await activeKid("production");
    await db.pool.query(
      "UPDATE signing_keys SET evm_address = NULL, evm_private_key_encrypted = NULL WHERE kid = $1",
      [production],
    );
    expect(await ensureSigningKeys(db.pool, box)).to.deep.equal([]);
    const completed = (await listSigningKeys(db.pool)).find((key) => key.kid === production);
    expect(completed?.evmAddress).to.match(/^0x[0-9a-fA-F]{40}$/);
    const audit = await db.pool.query(
      "SELECT 1 FROM audit_log WHERE action = 'signing_key.evm_key_added' AND subject = $1",
      [production],
    );
    expect(audit.rowCount).to.equal(1);
    const signer = await activeSigners(box).signerFor(db.pool, "production", production);
    expect(signer.evm?.address).to.equal(completed?.evmAddress);
  });

  it("a key whose sealed EVM half was swapped with another kid's does not open", async () => {
    await ensureSigningKeys(db.pool, box);
    const production = await activeKid("production");
    const sandbox = await activeKid("sandbox");
    await db.pool.query(
      `UPDATE signing_keys SET evm_private_key_encrypted =
         (SELECT evm_private_key_encrypted FROM signing_keys WHERE kid = $2) WHERE kid = $1`,
      [production, sandbox],
    );
    let refused: unknown;
    await activeSigners(box)
      .signerFor(db.pool, "production", production)
      .catch((error: unknown) => {
        refused = error;
      });
    expect(refused).to.be.instanceOf(SignerUnavailableError);
  });

  it("the overlap outlasts a decision's lifetime plus the verifiers' key cache", () => {
    expect(KEY_OVERLAP_SECONDS).to.be.at.least(MIN_KEY_OVERLAP_SECONDS);
  });

  it("rotation keeps the previous key as retiring; retirement waits for the overlap unless forced", async () => {
    await ensureSigningKeys(db.pool, box);
    const { kid, retiringKid } = await rotateSigningKey(db.pool, box, "production", BY);
    expect(await activeKid("production")).to.equal(kid);
    expect(await statuses()).to.deep.equal(["production:active", "production:retiring", "sandbox:active"]);
    const retiring = retiringKid as string;
    const error = await retireSigningKeys(db.pool, BY, { kid: retiring }).catch((failure: Error) => failure);
    expect(error).to.be.instanceOf(SigningKeyStoreError);
    const later = new Date(Date.now() + KEY_OVERLAP_SECONDS * 1000 + 1000);
    expect(await retireSigningKeys(db.pool, BY, { now: later })).to.deep.equal([retiring]);
    expect(await statuses()).to.deep.equal(["production:active", "sandbox:active"]);
    const { rows } = await db.pool.query("SELECT action FROM audit_log WHERE subject = $1", [retiring]);
    expect(rows.map((row) => row.action)).to.deep.equal(["signing_key.created", "signing_key.retired"]);
  });

  it("revoking the active key puts a replacement in its place in the same step", async () => {
    await ensureSigningKeys(db.pool, box);
    const revoked = (await activeKid("sandbox")) as string;
    const { replacementKid } = await revokeSigningKey(db.pool, box, revoked, BY);
    expect(await activeKid("sandbox")).to.equal(replacementKid);
    expect(await statuses()).to.deep.equal(["production:active", "sandbox:active", "sandbox:revoked"]);
    const again = await revokeSigningKey(db.pool, box, revoked, BY).catch((failure: Error) => failure);
    expect(again).to.be.instanceOf(SigningKeyStoreError);
  });

  it("the cached signer follows the active kid and refuses when there is none or the key does not open", async () => {
    const signers = activeSigners(box);
    const none = await signers.signerFor(db.pool, "production", null).catch((failure: Error) => failure);
    expect(none).to.be.instanceOf(SignerUnavailableError);
    await ensureSigningKeys(db.pool, box);
    const first = await signers.signerFor(db.pool, "production", await activeKid("production"));
    const { kid } = await rotateSigningKey(db.pool, box, "production", BY);
    const second = await signers.signerFor(db.pool, "production", kid);
    expect([first.kid === second.kid, second.kid]).to.deep.equal([false, kid]);
    const wrongBox = activeSigners(createSecretBox(randomBytes(32)));
    const unopened = await wrongBox.signerFor(db.pool, "production", kid).catch((failure: Error) => failure);
    expect(unopened).to.be.instanceOf(SignerUnavailableError);
  });

  it("operator commands rotate with an audited actor and reason, and refuse without them", async () => {
    await ensureSigningKeys(db.pool, box);
    const lines: string[] = [];
    const context: OperatorContext = {
      pool: db.pool,
      config: parseConfig({}),
      masterKey,
      out: (line) => lines.push(line),
    };
    const rotate = signingKeyCommands.find((command) => command.name === "signing-keys:rotate");
    const missing = await rotate
      ?.run(["--environment", "production"], context)
      .catch((failure: Error) => failure);
    expect(missing).to.have.property("name", "UsageError");
    await rotate?.run(["--environment", "production", "--actor", "alice", "--reason", "quarterly"], context);
    const { rows } = await db.pool.query(
      "SELECT actor, reason FROM audit_log WHERE action = 'signing_key.rotated'",
    );
    expect(rows).to.deep.equal([{ actor: "alice", reason: "quarterly" }]);
    expect(lines[0]).to.match(/^active {4}live-/);
  });
});
