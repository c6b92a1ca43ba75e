// Shared by the decision tests: a running API with two chains, fresh checkpoints, mirror rows, and an
// independent decision verifier written from the spec (not the project's verifier).
import { createPublicKey, verify } from "node:crypto";
import type { Pool } from "pg";
import { normalizeIdentity } from "../../../../core/fold";
import { startTestApi, type TestApi } from "../../support/harness";

export const CHAINS = [
  { chain: "hardhat", family: "evm" as const },
  { chain: "solana", family: "solana" as const },
];
export const EVM_OWNER = "0xAbCdEf0123456789aBCdef0123456789ABcDeF01";
export const EVM_OTHER = "0x1111111111111111111111111111111111111111";
export const SOL_OTHER = "4P1kx8H2nHkzxo7WceTozeJiAA2pTF2n14RKqBMKfazZ";

/** Marks every test chain as indexed up to its head, confirmed `ageSeconds` ago. */
export async function setCheckpoints(pool: Pool, ageSeconds = 0, chains = CHAINS): Promise<void> {
  for (const { chain, family } of chains) {
    await pool.query(
      `INSERT INTO chain_checkpoints (chain, family, head_number, head_seen_at, indexed_number, indexed_block_time, indexed_at)
       VALUES ($1, $2, 100, now(), 100, now() - make_interval(secs => $3), now() - make_interval(secs => $3))
       ON CONFLICT (chain) DO UPDATE SET indexed_at = EXCLUDED.indexed_at, indexed_block_time = EXCLUDED.indexed_block_time`,
      [chain, family, ageSeconds],
    );
  }
}

/**
 * An API on the test chains with its clock pinned at `at`, checkpoints fresh, and a freshness bound of ten years,
 * so the mirror stays fresh however far a test moves the clock.
 */
export async function pinnedDecisionApi(at: number): Promise<TestApi> {
  const api = await startTestApi({
    deps: { decisions: { chains: CHAINS, freshnessBoundSeconds: 10 * 365 * 86_400 } },
  });
  api.clock.set(at);
  await setCheckpoints(api.db.pool);
  return api;
}

/** A confirmed on-chain reservation in the mirror, as an indexer would write it. */
export async function mirrorReservation(
  pool: Pool,
  options: {
    chain: string;
    name: string;
    ticker: string;
    launcher: string;
    expiresInSeconds: number;
    nowMs?: number;
  },
): Promise<void> {
  const identity = normalizeIdentity(options.name, options.ticker);
  await pool.query(
    `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher, reserved_at,
       expires_at, duration_seconds, fee_paid, tx_hash, block_number)
     VALUES ($1, $2, $3, $4, $5, $6, $8::timestamptz - interval '1 hour', $8::timestamptz + make_interval(secs => $7), 86400, 0, '0xtx', 1)`,
    [
      options.chain,
      identity.nameHash,
      identity.tickerHash,
      identity.normalizedName,
      identity.normalizedTicker,
      options.launcher,
      options.expiresInSeconds,
      new Date(options.nowMs ?? Date.now()),
    ],
  );
}

interface PublishedKey {
  kid: string;
  status: string;
  publicKeyBase64: string;
}

export async function publishedKeys(
  api: TestApi,
  environment: "sandbox" | "production",
): Promise<PublishedKey[]> {
  const response = await api.call({ path: `/api/v1/keys?environment=${environment}` });
  return (response.body as { keys: PublishedKey[] }).keys;
}

/** The spec's canonical bytes, rebuilt here from the spec text: 13 fields, LF-joined, launcher lower-cased. */
function specCanonicalBytes(decision: Record<string, string | undefined>): Buffer {
  const fields = [
    decision.version,
    decision.identityKey,
    decision.normalizedName,
    decision.normalizedTicker,
    decision.chain,
    decision.launchpadId,
    (decision.launcher ?? "").toLowerCase(),
    decision.decision,
    decision.reason,
    decision.issuedAt,
    decision.expiresAt,
    decision.nonce ?? "",
    decision.requestId,
  ];
  return Buffer.from(fields.join("\n"), "utf8");
}

const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** Independent node:crypto verification: the key whose kid equals keyId, imported as SPKI DER. */
export function independentlyVerified(
  decision: Record<string, string | undefined>,
  keys: readonly PublishedKey[],
): boolean {
  const key = keys.find((entry) => entry.kid === decision.keyId);
  if (key === undefined || key.status === "revoked" || decision.signature === undefined) return false;
  const publicKey = createPublicKey({
    key: Buffer.concat([SPKI_PREFIX, Buffer.from(key.publicKeyBase64, "base64")]),
    format: "der",
    type: "spki",
  });
  return verify(null, specCanonicalBytes(decision), publicKey, Buffer.from(decision.signature, "base64"));
}

export async function outboxTypes(pool: Pool, identityKey: string): Promise<string[]> {
  const { rows } = await pool.query<{ type: string }>(
    "SELECT type FROM domain_events WHERE payload->>'identityKey' = $1 ORDER BY id",
    [identityKey],
  );
  return rows.map((row) => row.type);
}
