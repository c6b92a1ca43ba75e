// Core domain throughput on one core: folds, on-chain keys, decision signing and verification with
// node:crypto and with noble, webhook signatures. Each figure sits beside the bare primitive it wraps
// (measured in the same run) as a ratio, so overhead of the domain code is visible.
import { createPublicKey, sign as nodeSign, verify as nodeVerify } from "node:crypto";
import { signAsync, verifyAsync } from "@noble/ed25519";
import {
  canonicalDecisionBytes,
  createDecisionSigner,
  type DecisionRequest,
  verifyDecision,
  verifyDecisionNoble,
} from "../core/decision";
import { foldV1, normalizeIdentity } from "../core/fold";
import { generateSigningKey, publicKeyEntries } from "../core/keyring";
import { generateWebhookSecret, signWebhook, verifyWebhookSignature } from "../core/webhook/signature";
import type { Emit } from "./run";
import { median } from "./support/stats";

const ROUNDS = 5;
const ROUND_MS = 300;
const WARMUP_MS = 200;

async function rateOver(millis: number, operation: () => unknown): Promise<number> {
  const start = performance.now();
  let count = 0;
  while (performance.now() - start < millis) {
    // Batches keep the clock reads out of the measurement for fast operations.
    for (let index = 0; index < 16; index++) await operation();
    count += 16;
  }
  return (count * 1000) / (performance.now() - start);
}

/** Median of several short rounds: other processes on a shared 2-core machine skew single long runs. */
async function opsPerSecond(label: string, operation: () => unknown): Promise<number> {
  await rateOver(WARMUP_MS, operation);
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) rates.push(await rateOver(ROUND_MS, operation));
  const rate = median(rates);
  console.error(`${label.padEnd(34)} ${Math.round(rate).toLocaleString("en-US").padStart(12)} ops/s`);
  return rate;
}

export async function run(emit: Emit): Promise<void> {
  const rawName = "  M00n B4dger \u{1f680} C0in!! ";
  const rawTicker = "$badg3r";
  const folds = await opsPerSecond("fold v1 (name)", () => foldV1(rawName));
  emit("fold_per_s", Math.round(folds), "ops/s");
  const normalizations = await opsPerSecond("normalize pair (fold + 2 keccak)", () =>
    normalizeIdentity(rawName, rawTicker),
  );
  emit("normalize_identity_per_s", Math.round(normalizations), "ops/s");

  const { record, privateKey } = generateSigningKey("production");
  const sign = createDecisionSigner({ kid: record.kid, environment: "production", privateKey });
  const request: DecisionRequest = {
    requestId: "req_5b0c8e0e-7c1e-4d55-9c51-8a4a2f3c9e11",
    identityKey: "MOONBADGER::BADGER",
    normalizedName: "MOONBADGER",
    normalizedTicker: "BADGER",
    chain: "base",
    launchpadId: "lp_alpha",
    launcher: "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01",
    decision: "allow",
    reason: "available",
    issuedAt: new Date(),
    nonce: "n-42",
  };
  const decision = sign(request);
  const options = { keys: publicKeyEntries([record]), environment: "production" as const };
  const message = canonicalDecisionBytes(decision);
  const signature = Buffer.from(decision.signature, "base64");
  const publicKey = createPublicKey(privateKey);
  const rawPublicKey = Buffer.from(record.publicKeyBase64, "base64");
  const seed = Buffer.from(privateKey.export({ format: "jwk" }).d as string, "base64url");

  const rawSign = await opsPerSecond("node:crypto ed25519 sign (bare)", () =>
    nodeSign(null, message, privateKey),
  );
  const signs = await opsPerSecond("decision sign (node:crypto)", () => sign(request));
  emit("sign_node_per_s", Math.round(signs), "ops/s");
  emit("sign_node_vs_bare_ratio", Number((signs / rawSign).toFixed(3)), "ratio");

  const rawVerify = await opsPerSecond("node:crypto ed25519 verify (bare)", () =>
    nodeVerify(null, message, publicKey, signature),
  );
  const verifies = await opsPerSecond("decision verify (node:crypto)", () =>
    verifyDecision(decision, options),
  );
  emit("verify_node_per_s", Math.round(verifies), "ops/s");
  emit("verify_node_vs_bare_ratio", Number((verifies / rawVerify).toFixed(3)), "ratio");

  const nobleSigns = await opsPerSecond("noble ed25519 signAsync (bare)", () => signAsync(message, seed));
  emit("sign_noble_per_s", Math.round(nobleSigns), "ops/s");
  const rawNobleVerify = await opsPerSecond("noble ed25519 verifyAsync (bare)", () =>
    verifyAsync(signature, message, rawPublicKey, { zip215: false }),
  );
  const nobleVerifies = await opsPerSecond("decision verify (noble)", () =>
    verifyDecisionNoble(decision, options),
  );
  emit("verify_noble_per_s", Math.round(nobleVerifies), "ops/s");
  emit("verify_noble_vs_bare_ratio", Number((nobleVerifies / rawNobleVerify).toFixed(3)), "ratio");
  emit("verify_node_vs_noble_ratio", Number((verifies / nobleVerifies).toFixed(2)), "ratio");
  emit("sign_node_vs_noble_ratio", Number((signs / nobleSigns).toFixed(2)), "ratio");

  const secret = generateWebhookSecret();
  const body = JSON.stringify({
    id: "dlv_1",
    type: "launch.blocked",
    createdAt: new Date().toISOString(),
    data: request,
  });
  const now = Math.floor(Date.now() / 1000);
  const header = signWebhook(secret, body, now);
  emit(
    "webhook_sign_per_s",
    Math.round(await opsPerSecond("webhook sign", () => signWebhook(secret, body, now))),
    "ops/s",
  );
  emit(
    "webhook_verify_per_s",
    Math.round(
      await opsPerSecond("webhook verify", () =>
        verifyWebhookSignature(header, body, secret, { nowSeconds: now }),
      ),
    ),
    "ops/s",
  );
}
