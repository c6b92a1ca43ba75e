import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { signAsync } from "@noble/ed25519";
import { expect } from "chai";
import fc from "fast-check";
import {
  canonicalDecisionText,
  createDecisionSigner,
  DecisionFieldError,
  type DecisionRequest,
  ED25519_SPKI_PREFIX_HEX,
  SIGNED_FIELD_ORDER,
  type SignedDecision,
  SigningKeyError,
  type VerificationResult,
  type VerifyOptions,
  VerifyOptionsError,
  verifyDecision,
  verifyDecisionNoble,
} from "../../core/decision";
import { generateSigningKey, publicKeyEntries, revokeKey, rotateKeyRing } from "../../core/keyring";

const ISSUED_AT = new Date("2026-11-22T10:00:00.000Z");
const ISSUED_MS = ISSUED_AT.getTime();
const EXPIRES_MS = ISSUED_MS + 5 * 60 * 1000;

const retiringProduction = generateSigningKey("production", new Date("2026-10-01T00:00:00Z"));
const production = generateSigningKey("production", new Date("2026-11-01T00:00:00Z"));
const sandbox = generateSigningKey("sandbox", new Date("2026-11-01T00:00:00Z"));
const records = [retiringProduction.record, production.record, sandbox.record].reduce(rotateKeyRing, []);
const keys = publicKeyEntries(records);

const signProduction = createDecisionSigner({
  kid: production.record.kid,
  environment: "production",
  privateKey: production.privateKey,
});
const signRetiring = createDecisionSigner({
  kid: retiringProduction.record.kid,
  environment: "production",
  privateKey: retiringProduction.privateKey,
});
const signSandbox = createDecisionSigner({
  kid: sandbox.record.kid,
  environment: "sandbox",
  privateKey: sandbox.privateKey,
});

const EVM_LAUNCHER = "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01";
const REQUEST: DecisionRequest = {
  requestId: "req_0001",
  identityKey: "MOONBADGER::BADGER",
  normalizedName: "MOONBADGER",
  normalizedTicker: "BADGER",
  chain: "base",
  launchpadId: "lp_alpha",
  launcher: EVM_LAUNCHER,
  decision: "block",
  reason: "protected_for_another_wallet",
  issuedAt: ISSUED_AT,
  nonce: "n-42",
};

function options(overrides: Partial<VerifyOptions> = {}): VerifyOptions {
  return {
    keys,
    environment: "production",
    now: ISSUED_MS + 1000,
    expect: { launchpadId: "lp_alpha", chain: "base", launcher: EVM_LAUNCHER },
    ...overrides,
  };
}

/** Runs both verifiers, requires identical answers, returns the answer. */
async function verifyBoth(
  input: unknown,
  verifyOptions: VerifyOptions = options(),
): Promise<VerificationResult> {
  const nodeAnswer = verifyDecision(input, verifyOptions);
  const nobleAnswer = await verifyDecisionNoble(input, verifyOptions);
  expect(nobleAnswer, "noble and node:crypto must agree").to.deep.equal(nodeAnswer);
  return nodeAnswer;
}

async function expectReason(input: unknown, reason: string, verifyOptions?: VerifyOptions): Promise<void> {
  const answer = await verifyBoth(input, verifyOptions);
  expect(answer).to.deep.equal({ valid: reason === "ok", reason });
}

function tampered(decision: SignedDecision, changes: Record<string, unknown>): Record<string, unknown> {
  return { ...decision, ...changes };
}

describe("signed decisions", () => {
  describe("format and canonical bytes", () => {
    it("joins the 13 fields in spec order with LF, lower-cases the launcher, writes an absent nonce as empty", () => {
      const { nonce: _absent, ...withoutNonce } = signProduction(REQUEST);
      expect(canonicalDecisionText(withoutNonce)).to.equal(
        [
          "svc-decision-v1",
          "MOONBADGER::BADGER",
          "MOONBADGER",
          "BADGER",
          "base",
          "lp_alpha",
          "0xabcdef0123456789abcdef0123456789abcdef01",
          "block",
          "protected_for_another_wallet",
          "2026-11-22T10:00:00.000Z",
          "2026-11-22T10:05:00.000Z",
          "",
          "req_0001",
        ].join("\n"),
      );
      expect(SIGNED_FIELD_ORDER).to.have.length(13);
    });

    it("carries version, environment, ed25519 algorithm, key id, base64 signature and a 5-minute expiry", () => {
      const decision = signProduction(REQUEST);
      expect(decision.version).to.equal("svc-decision-v1");
      expect(decision.environment).to.equal("production");
      expect(decision.signatureAlg).to.equal("ed25519");
      expect(decision.keyId).to.equal(production.record.kid);
      expect(decision.issuedAt).to.equal("2026-11-22T10:00:00.000Z");
      expect(decision.expiresAt).to.equal("2026-11-22T10:05:00.000Z");
      expect(decision.launcher, "the field keeps the caller's spelling").to.equal(EVM_LAUNCHER);
      expect(Buffer.from(decision.signature, "base64")).to.have.length(64);
    });

    it("omits nonce when the request had none", () => {
      const { nonce: _unused, ...request } = REQUEST;
      expect(signProduction(request)).to.not.have.property("nonce");
    });

    it("produces the same signature as an independent Ed25519 implementation (noble) over the canonical bytes", async () => {
      const decision = signProduction(REQUEST);
      const seed = Buffer.from(production.privateKey.export({ format: "jwk" }).d as string, "base64url");
      const nobleSignature = await signAsync(new TextEncoder().encode(canonicalDecisionText(decision)), seed);
      expect(Buffer.from(nobleSignature).toString("base64")).to.equal(decision.signature);
    });

    it("imports published keys through the spec's SPKI prefix", () => {
      const raw = Buffer.from(production.record.publicKeyBase64, "base64");
      const spki = createPublicKey(production.privateKey).export({ format: "der", type: "spki" });
      expect(Buffer.concat([Buffer.from(ED25519_SPKI_PREFIX_HEX, "hex"), raw]).equals(spki)).to.equal(true);
    });
  });

  describe("signer refuses what it cannot sign unambiguously", () => {
    it("rejects a nonce containing a line feed", () => {
      expect(() => signProduction({ ...REQUEST, nonce: "a\nb" })).to.throw(DecisionFieldError, /nonce/);
    });
    it("rejects an unpaired surrogate, which UTF-8 cannot encode faithfully", () => {
      expect(() => signProduction({ ...REQUEST, reason: "x\ud800y" })).to.throw(
        DecisionFieldError,
        /reason.*surrogate/,
      );
      expect(() => signProduction({ ...REQUEST, reason: "x\u{1f680}y" })).to.not.throw();
    });
    it("rejects an identity key that does not match the folded pair", () => {
      expect(() => signProduction({ ...REQUEST, identityKey: "MOONBADGER::BADGR" })).to.throw(
        DecisionFieldError,
        /identityKey/,
      );
    });
    it("rejects a key that is not an Ed25519 private key", () => {
      const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      expect(() => createDecisionSigner({ kid: "k", environment: "sandbox", privateKey })).to.throw(
        SigningKeyError,
      );
    });
  });

  describe("verification (node:crypto and noble give identical answers)", () => {
    it("ok for a fresh decision, with and without nonce, for the active and a retiring key", async () => {
      await expectReason(signProduction(REQUEST), "ok");
      const { nonce: _unused, ...request } = REQUEST;
      await expectReason(signProduction(request), "ok");
      await expectReason(signRetiring(REQUEST), "ok");
    });

    const CHANGED_VALUES: Record<(typeof SIGNED_FIELD_ORDER)[number], unknown> = {
      version: "svc-decision-v1 ",
      identityKey: "MOONBADGER::BADGE",
      normalizedName: "MOONBADGERS",
      normalizedTicker: "BADGEE",
      chain: "ethereum",
      launchpadId: "lp_beta",
      launcher: "0xabcdef0123456789abcdef0123456789abcdef02",
      decision: "allow",
      reason: "available",
      issuedAt: "2026-11-22T10:00:01.000Z",
      expiresAt: "2026-11-22T10:15:00.000Z",
      nonce: "n-43",
      requestId: "req_0002",
    };
    for (const field of SIGNED_FIELD_ORDER) {
      it(`changing ${field} fails`, async () => {
        const changed = tampered(signProduction(REQUEST), { [field]: CHANGED_VALUES[field] });
        const expected = field === "version" ? "unsupported_version" : "bad_signature";
        // Without request expectations, so that only the signature can catch the change.
        await expectReason(changed, expected, options({ expect: {} }));
      });
    }

    it("adding or removing a nonce fails", async () => {
      const { nonce: _unused, ...request } = REQUEST;
      await expectReason(tampered(signProduction(request), { nonce: "n-1" }), "bad_signature");
      const { nonce: _removed, ...withoutNonce } = signProduction(REQUEST);
      await expectReason(withoutNonce, "bad_signature");
    });

    it("re-casing the launcher keeps the signature valid (it is signed lower-cased)", async () => {
      await expectReason(tampered(signProduction(REQUEST), { launcher: EVM_LAUNCHER.toLowerCase() }), "ok");
    });

    it("a changed signature is bad_signature", async () => {
      const decision = signProduction(REQUEST);
      const bytes = Buffer.from(decision.signature, "base64");
      bytes[10] = (bytes[10] as number) ^ 0x01;
      await expectReason(tampered(decision, { signature: bytes.toString("base64") }), "bad_signature");
      await expectReason(tampered(decision, { signature: decision.signature.slice(4) }), "bad_signature");
      await expectReason(tampered(decision, { signature: ` ${decision.signature}` }), "bad_signature");
      await expectReason(
        tampered(decision, { signature: Buffer.alloc(64).toString("base64") }),
        "bad_signature",
      );
      await expectReason(tampered(decision, { signature: signSandbox(REQUEST).signature }), "bad_signature");
    });

    it("a key id naming another listed key is bad_signature; an unlisted one is unknown_key", async () => {
      const decision = signProduction(REQUEST);
      await expectReason(tampered(decision, { keyId: retiringProduction.record.kid }), "bad_signature");
      await expectReason(tampered(decision, { keyId: "live-20260101-00000000" }), "unknown_key");
      await expectReason(decision, "unknown_key", options({ keys: [] }));
    });

    it("never falls back to another key when the listed key for keyId is unusable", async () => {
      const decision = signProduction(REQUEST);
      const brokenEntry = keys.map((entry) =>
        entry.kid === production.record.kid ? { ...entry, publicKeyBase64: "AAAA" } : entry,
      );
      await expectReason(decision, "unknown_key", options({ keys: brokenEntry }));
    });

    it("a revoked key gives revoked_key, even when an unrevoked duplicate entry is listed", async () => {
      const replacement = generateSigningKey("production");
      const revokedKeys = publicKeyEntries(revokeKey(records, production.record.kid, replacement.record));
      const decision = signProduction(REQUEST);
      await expectReason(decision, "revoked_key", options({ keys: revokedKeys }));
      await expectReason(decision, "revoked_key", options({ keys: [...keys, ...revokedKeys] }));
    });

    it("a missing or empty signature is no_signature", async () => {
      const { signature: _unused, ...unsigned } = signProduction(REQUEST);
      await expectReason(unsigned, "no_signature");
      await expectReason(tampered(signProduction(REQUEST), { signature: "" }), "no_signature");
      await expectReason(tampered(signProduction(REQUEST), { signature: null }), "no_signature");
    });

    it("a decision of another format version is unsupported_version", async () => {
      await expectReason(
        tampered(signProduction(REQUEST), { version: "svc-decision-v2" }),
        "unsupported_version",
      );
    });

    it("anything that is not a well-formed decision is malformed", async () => {
      const decision = signProduction(REQUEST);
      const { chain: _unused, ...withoutChain } = decision;
      for (const input of [
        null,
        "decision",
        [decision],
        withoutChain,
        tampered(decision, { issuedAt: "yesterday" }),
        tampered(decision, { expiresAt: 1_700_000_000 }),
        tampered(decision, { decision: "maybe" }),
        tampered(decision, { signatureAlg: "hmac-sha256" }),
        tampered(decision, { environment: "staging" }),
        tampered(decision, { reason: "line\nfeed" }),
        tampered(decision, { nonce: 42 }),
      ]) {
        await expectReason(input, "malformed");
      }
    });

    it("expires 30 s after expiresAt by default, and at expiresAt with zero skew", async () => {
      const decision = signProduction(REQUEST);
      await expectReason(decision, "ok", options({ now: EXPIRES_MS + 30_000 }));
      await expectReason(decision, "expired", options({ now: EXPIRES_MS + 30_001 }));
      await expectReason(decision, "ok", options({ now: EXPIRES_MS, skewSeconds: 0 }));
      await expectReason(decision, "expired", options({ now: EXPIRES_MS + 1, skewSeconds: 0 }));
      await expectReason(decision, "ok", options({ now: new Date(EXPIRES_MS + 119_000), skewSeconds: 120 }));
    });

    it("is not yet valid when issuedAt lies more than the skew in the future", async () => {
      const decision = signProduction(REQUEST);
      await expectReason(decision, "ok", options({ now: ISSUED_MS - 30_000 }));
      await expectReason(decision, "not_yet_valid", options({ now: ISSUED_MS - 30_001 }));
    });

    it("checks the environment field against the signing key's environment and the expected one", async () => {
      const decision = signProduction(REQUEST);
      // The environment field is not signed, so relabelling keeps the signature valid: the key catches it.
      await expectReason(
        tampered(decision, { environment: "sandbox" }),
        "environment_mismatch",
        options({ environment: "sandbox" }),
      );
      await expectReason(decision, "environment_mismatch", options({ environment: "sandbox" }));
      await expectReason(signSandbox(REQUEST), "environment_mismatch");
      await expectReason(signSandbox(REQUEST), "ok", options({ environment: "sandbox" }));
    });

    it("matches launchpadId, chain and launcher against the request", async () => {
      const decision = signProduction(REQUEST);
      const requested = { launchpadId: "lp_alpha", chain: "base", launcher: EVM_LAUNCHER };
      await expectReason(
        decision,
        "launchpad_mismatch",
        options({ expect: { ...requested, launchpadId: "lp_beta" } }),
      );
      await expectReason(decision, "chain_mismatch", options({ expect: { ...requested, chain: "solana" } }));
      await expectReason(
        decision,
        "launcher_mismatch",
        options({ expect: { ...requested, launcher: "0xabcdef0123456789abcdef0123456789abcdef02" } }),
      );
      await expectReason(
        decision,
        "ok",
        options({ expect: { ...requested, launcher: EVM_LAUNCHER.toUpperCase().replace("0X", "0x") } }),
      );
    });

    it("compares Solana launchers exactly (base58 is case-sensitive)", async () => {
      const solanaLauncher = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
      const decision = signProduction({ ...REQUEST, chain: "solana", launcher: solanaLauncher });
      const solana = { launchpadId: "lp_alpha", chain: "solana" };
      await expectReason(decision, "ok", options({ expect: { ...solana, launcher: solanaLauncher } }));
      await expectReason(
        decision,
        "launcher_mismatch",
        options({ expect: { ...solana, launcher: solanaLauncher.toLowerCase() } }),
      );
    });

    it("refuses a misconfigured verifier instead of answering", async () => {
      const decision = signProduction(REQUEST);
      const bad = { ...options(), environment: "staging" } as unknown as VerifyOptions;
      expect(() => verifyDecision(decision, bad)).to.throw(VerifyOptionsError, /environment/);
      expect(() => verifyDecision(decision, options({ skewSeconds: -1 }))).to.throw(
        VerifyOptionsError,
        /skewSeconds/,
      );
      for (const now of [new Date("not a date"), Number.NaN]) {
        expect(() => verifyDecision(decision, options({ now }))).to.throw(VerifyOptionsError, /now/);
        let nobleError: unknown;
        await verifyDecisionNoble(decision, options({ now })).catch((error: unknown) => {
          nobleError = error;
        });
        expect(nobleError).to.be.instanceOf(VerifyOptionsError);
      }
    });
  });

  describe("properties", () => {
    // Any Unicode text a signer accepts: everything but line feeds and unpaired surrogates.
    const field = fc.string({ unit: "binary", maxLength: 40 }).filter((value) => !/\n|\p{Cs}/u.test(value));
    const requestArbitrary = fc.record({
      requestId: field,
      chain: field,
      launchpadId: field,
      launcher: field,
      reason: field,
      nonce: fc.option(field, { nil: undefined }),
      decision: fc.constantFrom("allow", "allow_authorized_only", "block", "recheck_required" as const),
    });

    it("every signed decision verifies ok with both verifiers", async () => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary, async (variable) => {
          const { nonce, ...rest } = variable;
          const request: DecisionRequest = { ...REQUEST, ...rest, ...(nonce === undefined ? {} : { nonce }) };
          if (request.nonce === undefined) delete request.nonce;
          const answer = await verifyBoth(signProduction(request), options({ expect: {} }));
          expect(answer.reason).to.equal("ok");
        }),
        { numRuns: 40 },
      );
    });

    it("any change to a signed field's canonical value is bad_signature with both verifiers", async () => {
      const mutable = SIGNED_FIELD_ORDER.filter(
        (name) => name !== "version" && name !== "issuedAt" && name !== "expiresAt" && name !== "decision",
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...mutable), field, async (name, replacement) => {
          const decision = signProduction(REQUEST);
          const current = name === "nonce" ? (decision.nonce ?? "") : String(decision[name]);
          const canonical = name === "launcher" ? replacement.toLowerCase() : replacement;
          fc.pre(canonical !== (name === "launcher" ? current.toLowerCase() : current));
          const answer = await verifyBoth(
            tampered(decision, { [name]: replacement }),
            options({ expect: {} }),
          );
          expect(answer.reason).to.equal("bad_signature");
        }),
        { numRuns: 60 },
      );
    });
  });
});
