// The commitment a new Solana reservation reveals, computed exactly as the program's reveal recomputes it.
import type { PublicKey } from "@solana/web3.js";
import { keccak256 } from "js-sha3";
import type { NormalizedIdentity } from "../../core/fold";

export interface CommitmentInput {
  identity: Pick<NormalizedIdentity, "nameHash" | "tickerHash">;
  launcher: PublicKey;
  durationSeconds: number;
  partnerRef: `0x${string}`;
  secret: `0x${string}`;
}

const bytes32 = (hex: string, what: string): Buffer => {
  const bytes = Buffer.from(hex.replace(/^0x/, ""), "hex");
  if (bytes.length !== 32) throw new TypeError(`${what} must be 32 bytes of hex, got ${hex}`);
  return bytes;
};

/** keccak256(name_hash || ticker_hash || launcher || duration_seconds as u64 LE || partner_ref || secret). */
export function solanaCommitment(input: CommitmentInput): `0x${string}` {
  const duration = Buffer.alloc(8);
  duration.writeBigUInt64LE(BigInt(input.durationSeconds));
  const preimage = Buffer.concat([
    bytes32(input.identity.nameHash, "nameHash"),
    bytes32(input.identity.tickerHash, "tickerHash"),
    input.launcher.toBuffer(),
    duration,
    bytes32(input.partnerRef, "partnerRef"),
    bytes32(input.secret, "secret"),
  ]);
  return `0x${keccak256(preimage)}`;
}
