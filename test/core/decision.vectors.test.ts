import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect } from "chai";
import {
  canonicalDecisionText,
  createDecisionSigner,
  type DecisionOutcome,
  type SignedDecision,
  type VerifyOptions,
  verifyDecision,
  verifyDecisionNoble,
} from "../../core/decision";
import type { PublicKeyEntry } from "../../core/keyring";
import { DECISION_VECTORS_FILE, decisionVectorsText } from "../vectors/generate-decision-v1";

interface DecisionVectorCase {
  id: string;
  description: string;
  decision: Record<string, unknown>;
  canonicalText: string;
  options: Omit<VerifyOptions, "keys" | "now"> & { now: string };
  expected: { valid: boolean; reason: string };
}

const fileText = readFileSync(DECISION_VECTORS_FILE, "utf8");
const file = JSON.parse(fileText) as {
  version: string;
  keys: (PublicKeyEntry & { privateKeySeedHex: string })[];
  cases: DecisionVectorCase[];
};
const publishedKeys: PublicKeyEntry[] = file.keys.map(({ privateKeySeedHex: _secret, ...entry }) => entry);

/** PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_ED25519_PREFIX = "302e020100300506032b657004220420";

function optionsOf(vector: DecisionVectorCase): VerifyOptions {
  return { ...vector.options, keys: publishedKeys, now: Date.parse(vector.options.now) };
}

describe("decision verification vectors (test/vectors/decision-v1.json)", () => {
  it("is exactly what the generator writes (edit generate-decision-v1.ts, then run it)", async () => {
    expect(
      fileText === (await decisionVectorsText()),
      "decision-v1.json is out of date or was edited by hand",
    ).to.equal(true);
  });

  it("has a case for every verification reason", () => {
    const reasons = new Set(file.cases.map((vector) => vector.expected.reason));
    for (const reason of [
      "ok",
      "expired",
      "not_yet_valid",
      "unknown_key",
      "revoked_key",
      "bad_signature",
      "no_signature",
      "malformed",
      "unsupported_version",
      "environment_mismatch",
      "launchpad_mismatch",
      "chain_mismatch",
      "launcher_mismatch",
    ]) {
      expect(reasons, reason).to.include(reason);
    }
  });

  for (const vector of file.cases) {
    it(`${vector.id}: ${vector.expected.reason}`, async () => {
      const options = optionsOf(vector);
      expect(verifyDecision(vector.decision, options), "node:crypto").to.deep.equal(vector.expected);
      expect(await verifyDecisionNoble(vector.decision, options), "noble").to.deep.equal(vector.expected);
    });
  }

  for (const vector of file.cases.filter((candidate) => candidate.expected.valid)) {
    it(`${vector.id}: our canonical text and signer reproduce the independent signature`, () => {
      const decision = vector.decision as unknown as SignedDecision;
      expect(canonicalDecisionText(decision)).to.equal(vector.canonicalText);
      const key = file.keys.find((entry) => entry.kid === decision.keyId);
      if (key === undefined) throw new Error(`vector ${vector.id} names an unlisted key`);
      const privateKey = createPrivateKey({
        key: Buffer.from(PKCS8_ED25519_PREFIX + key.privateKeySeedHex, "hex"),
        format: "der",
        type: "pkcs8",
      });
      const sign = createDecisionSigner({ kid: key.kid, environment: key.environment, privateKey });
      const resigned = sign({
        requestId: decision.requestId,
        identityKey: decision.identityKey,
        normalizedName: decision.normalizedName,
        normalizedTicker: decision.normalizedTicker,
        chain: decision.chain,
        launchpadId: decision.launchpadId,
        launcher: decision.launcher,
        decision: decision.decision as DecisionOutcome,
        reason: decision.reason,
        issuedAt: new Date(decision.issuedAt),
        ...(decision.nonce === undefined ? {} : { nonce: decision.nonce }),
      });
      expect(resigned).to.deep.equal(decision);
    });
  }
});
