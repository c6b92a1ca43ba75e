// Public signing key entry as served by GET /v1/keys. Browser-safe: verifiers consume it.
import type { Environment } from "../environment";

export const SIGNING_KEY_STATUSES = ["active", "retiring", "revoked"] as const;
export type SigningKeyStatus = (typeof SIGNING_KEY_STATUSES)[number];

export interface PublicKeyEntry {
  kid: string;
  environment: Environment;
  status: SigningKeyStatus;
  active: boolean;
  /** base64 of the raw 32-byte Ed25519 public key. */
  publicKeyBase64: string;
  /** The address whose EIP-712 launch decisions EVM guards accept under this kid (docs/onchain-guard.md). */
  evmAddress?: `0x${string}`;
}
