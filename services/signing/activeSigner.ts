// The signer of each environment's active key, cached in memory. Every validation reads the active kid in
// the same query as the identity's records (see recordLoader) and the key is reopened only when that kid
// changed, so a rotation or revocation by any process takes effect on the very next validation, with no
// polling interval and no extra round trip.
import { type KeyObject, sign as signEd25519 } from "node:crypto";
import type { Pool, PoolClient } from "pg";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createDecisionSigner, type DecisionSigner } from "../../core/decision";
import type { LaunchDecisionTypedData } from "../../core/decision/onchain";
import type { Environment } from "../../core/environment";
import { ServiceError } from "../../core/errors/serviceError";
import { openEvmDecisionKey, openSigningKey } from "../../core/keyring";
import type { SecretBox } from "../../core/secrets/secretBox";

/** No usable active key: validation answers 503 service_unavailable, never an unsigned decision. */
export class SignerUnavailableError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

interface ActiveRow {
  kid: string;
  public_key: Buffer;
  private_key_encrypted: string;
  evm_address: string | null;
  evm_private_key_encrypted: string | null;
  created_at: Date;
}

/** The key's EVM half: its address and an EIP-712 signer (65 bytes, low s, v 27 or 28). */
export interface EvmDecisionSigner {
  address: Hex;
  signTypedData(typedData: LaunchDecisionTypedData): Promise<Hex>;
}

export interface ActiveSigner {
  kid: string;
  sign: DecisionSigner;
  /** base64 of the raw Ed25519 public key. */
  publicKeyBase64: string;
  /** A raw Ed25519 signature of `message` (the Solana on-chain decision message). */
  signBytes(message: Uint8Array): Buffer;
  /** Null for a key without an EVM half (it gets one on the next start). */
  evm: EvmDecisionSigner | null;
}

function evmSignerOf(box: SecretBox, row: ActiveRow): EvmDecisionSigner | null {
  if (row.evm_address === null || row.evm_private_key_encrypted === null) return null;
  const key = openEvmDecisionKey(box, row.kid, row.evm_address, row.evm_private_key_encrypted);
  const account = privateKeyToAccount(key.privateKey);
  return { address: key.address, signTypedData: (typedData) => account.signTypedData(typedData) };
}

export interface ActiveSigners {
  /** The signer of `activeKid` (the environment's active key as just read); opens it on `db` when new. */
  signerFor(db: Pool | PoolClient, environment: Environment, activeKid: string | null): Promise<ActiveSigner>;
}

export function activeSigners(box: SecretBox | undefined): ActiveSigners {
  const cache = new Map<Environment, ActiveSigner>();
  return {
    async signerFor(db, environment, activeKid) {
      if (box === undefined) {
        throw new SignerUnavailableError("No master key is configured, so no signing key can be opened.");
      }
      if (activeKid === null) {
        throw new SignerUnavailableError(`The ${environment} environment has no active signing key.`);
      }
      const cached = cache.get(environment);
      if (cached?.kid === activeKid) return cached;
      // A key that turned retiring since the snapshot still verifies, so it may sign; a revoked one may not.
      const { rows } = await db.query<ActiveRow>(
        `SELECT kid, public_key, private_key_encrypted, evm_address, evm_private_key_encrypted, created_at
         FROM signing_keys
         WHERE kid = $1 AND environment = $2 AND status IN ('active', 'retiring')`,
        [activeKid, environment],
      );
      const row = rows[0];
      if (row === undefined) {
        throw new SignerUnavailableError(`Signing key ${activeKid} was revoked or retired meanwhile; retry.`);
      }
      let sign: DecisionSigner;
      let privateKey: KeyObject;
      let evm: EvmDecisionSigner | null;
      try {
        const key = openSigningKey(
          box,
          {
            kid: row.kid,
            environment,
            status: "active",
            publicKeyBase64: row.public_key.toString("base64"),
            createdAt: row.created_at,
          },
          row.private_key_encrypted,
        );
        sign = createDecisionSigner(key);
        privateKey = key.privateKey;
        evm = evmSignerOf(box, row);
      } catch (error) {
        throw new SignerUnavailableError(
          `The active ${environment} signing key ${row.kid} cannot be opened (${(error as Error).message}); check MASTER_KEY.`,
        );
      }
      const entry: ActiveSigner = {
        kid: row.kid,
        sign,
        publicKeyBase64: row.public_key.toString("base64"),
        signBytes: (message) => signEd25519(null, message, privateKey),
        evm,
      };
      cache.set(environment, entry);
      return entry;
    },
  };
}
