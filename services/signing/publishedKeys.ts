// Published signing keys, read from signing_keys (written by the key store and rotation CLI).
import type { Pool } from "pg";
import type { Environment } from "../../core/environment";
import { type PublicKeyEntry, publicKeyEntries, type SigningKeyRecord } from "../../core/keyring";

interface SigningKeyRow {
  kid: string;
  environment: Environment;
  status: SigningKeyRecord["status"];
  public_key: Buffer;
  evm_address: `0x${string}` | null;
  created_at: Date;
}

export async function readSigningKeyRecords(pool: Pool): Promise<SigningKeyRecord[]> {
  const { rows } = await pool.query<SigningKeyRow>(
    "SELECT kid, environment, status, public_key, evm_address, created_at FROM signing_keys",
  );
  return rows.map((row) => ({
    kid: row.kid,
    environment: row.environment,
    status: row.status,
    publicKeyBase64: row.public_key.toString("base64"),
    ...(row.evm_address === null ? {} : { evmAddress: row.evm_address }),
    createdAt: row.created_at,
  }));
}

export async function readPublicKeys(pool: Pool, environment: Environment): Promise<PublicKeyEntry[]> {
  return publicKeyEntries(await readSigningKeyRecords(pool), environment);
}
