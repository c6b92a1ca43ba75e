import { expect } from "chai";
import { createDecisionSigner, verifyDecision } from "../../core/decision";
import {
  activeKeyOf,
  assertValidKeyRing,
  generateSigningKey,
  KeyRingError,
  openSigningKey,
  publicKeyEntries,
  revokeKey,
  rotateKeyRing,
  type SigningKeyRecord,
  sealPrivateKey,
} from "../../core/keyring";
import {
  createSecretBox,
  generateMasterKey,
  parseMasterKey,
  SecretBoxError,
} from "../../core/secrets/secretBox";

function record(kid: string, overrides: Partial<SigningKeyRecord> = {}): SigningKeyRecord {
  return {
    kid,
    environment: "production",
    status: "active",
    publicKeyBase64: Buffer.alloc(32, kid.length).toString("base64"),
    createdAt: new Date("2026-11-01T00:00:00Z"),
    ...overrides,
  };
}

describe("signing key ring", () => {
  describe("lifecycle model", () => {
    it("rotation keeps exactly one active key per environment and makes the previous one retiring", () => {
      const first = rotateKeyRing([], record("live-1"));
      const second = rotateKeyRing(first, record("live-2", { createdAt: new Date("2026-11-02T00:00:00Z") }));
      const withSandbox = rotateKeyRing(second, record("sbx-1", { environment: "sandbox" }));
      expect(withSandbox.map((key) => [key.kid, key.status])).to.deep.equal([
        ["live-1", "retiring"],
        ["live-2", "active"],
        ["sbx-1", "active"],
      ]);
      expect(activeKeyOf(withSandbox, "production").kid).to.equal("live-2");
      expect(activeKeyOf(withSandbox, "sandbox").kid).to.equal("sbx-1");
      expect(() => assertValidKeyRing(withSandbox)).to.not.throw();
    });

    it("rejects two active keys in one environment, duplicate kids, and an environment without a key", () => {
      expect(() => assertValidKeyRing([record("a"), record("b")])).to.throw(KeyRingError, /2 active keys/);
      expect(() => assertValidKeyRing([record("a"), record("a", { status: "retiring" })])).to.throw(
        KeyRingError,
        /twice/,
      );
      expect(() => assertValidKeyRing([record("a", { status: "retiring" })])).to.throw(
        KeyRingError,
        /0 active keys/,
      );
      expect(() => activeKeyOf([record("a")], "sandbox")).to.throw(KeyRingError, /sandbox/);
      expect(() => rotateKeyRing([record("a")], record("a"))).to.throw(KeyRingError, /already/);
    });

    it("revoking the active key requires a replacement of the same environment, which becomes active", () => {
      const ring = rotateKeyRing(rotateKeyRing([], record("live-1")), record("live-2"));
      expect(() => revokeKey(ring, "live-2")).to.throw(KeyRingError, /replacement/);
      expect(() => revokeKey(ring, "live-2", record("sbx-9", { environment: "sandbox" }))).to.throw(
        KeyRingError,
        /production/,
      );
      expect(() => revokeKey(ring, "nope")).to.throw(KeyRingError, /No signing key/);
      const revoked = revokeKey(ring, "live-2", record("live-3"));
      expect(revoked.map((key) => [key.kid, key.status])).to.deep.equal([
        ["live-1", "retiring"],
        ["live-2", "revoked"],
        ["live-3", "active"],
      ]);
      const retiredRevoked = revokeKey(ring, "live-1");
      expect(retiredRevoked.find((key) => key.kid === "live-1")?.status).to.equal("revoked");
      expect(activeKeyOf(retiredRevoked, "production").kid).to.equal("live-2");
    });

    it("publishes entries of exactly the spec's shape, active first, filtered by environment", () => {
      const ring = revokeKey(
        rotateKeyRing(
          rotateKeyRing(rotateKeyRing([], record("live-1")), record("live-2")),
          record("sbx-1", { environment: "sandbox" }),
        ),
        "live-1",
      );
      const production = publicKeyEntries(ring, "production");
      expect(production.map((entry) => Object.keys(entry).sort())).to.deep.equal([
        ["active", "environment", "kid", "publicKeyBase64", "status"],
        ["active", "environment", "kid", "publicKeyBase64", "status"],
      ]);
      expect(production.map((entry) => [entry.kid, entry.status, entry.active])).to.deep.equal([
        ["live-2", "active", true],
        ["live-1", "revoked", false],
      ]);
      expect(publicKeyEntries(ring)).to.have.length(3);
    });
  });

  describe("key material", () => {
    const box = createSecretBox(parseMasterKey(generateMasterKey()));

    it("generates Ed25519 keys whose public entry verifies what the private key signs", () => {
      const generated = generateSigningKey("sandbox", new Date("2026-11-22T00:00:00Z"));
      expect(generated.record.kid).to.match(/^sbx-20261122-[0-9a-f]{8}$/);
      expect(Buffer.from(generated.record.publicKeyBase64, "base64")).to.have.length(32);
      const sign = createDecisionSigner({
        kid: generated.record.kid,
        environment: "sandbox",
        privateKey: generated.privateKey,
      });
      const decision = sign({
        requestId: "r",
        identityKey: "AB::CD",
        normalizedName: "AB",
        normalizedTicker: "CD",
        chain: "solana",
        launchpadId: "lp",
        launcher: "w",
        decision: "allow",
        reason: "available",
        issuedAt: new Date(),
      });
      expect(
        verifyDecision(decision, { keys: publicKeyEntries([generated.record]), environment: "sandbox" })
          .reason,
      ).to.equal("ok");
    });

    it("seals private keys at rest and opens them only for their own kid", () => {
      const generated = generateSigningKey("production");
      const sealed = sealPrivateKey(box, generated.record.kid, generated.privateKey);
      const pkcs8 = generated.privateKey.export({ format: "der", type: "pkcs8" });
      expect(sealed).to.not.include(pkcs8.toString("base64url").slice(-20));
      const opened = openSigningKey(box, generated.record, sealed);
      expect(opened.kid).to.equal(generated.record.kid);
      expect(opened.privateKey.export({ format: "der", type: "pkcs8" }).equals(pkcs8)).to.equal(true);
      expect(() => openSigningKey(box, { ...generated.record, kid: "live-other" }, sealed)).to.throw(
        SecretBoxError,
      );
    });

    it("refuses a sealed key that does not belong to the record's public key", () => {
      const first = generateSigningKey("production");
      const second = generateSigningKey("production");
      const sealed = sealPrivateKey(box, first.record.kid, second.privateKey);
      expect(() => openSigningKey(box, first.record, sealed)).to.throw(KeyRingError, /does not match/);
    });
  });
});
