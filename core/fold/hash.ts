// On-chain keys: keccak256 of the folded UTF-8 string (the folded form is ASCII, so bytes = characters).
import { keccak256 } from "js-sha3";
import { ServiceError } from "../errors/serviceError";
import { isFolded } from "./fold";

export type Hex32 = `0x${string}`;

/** Thrown when a raw (unfolded) string is passed where an on-chain key is computed. */
export class NotFoldedError extends ServiceError {
  constructor(readonly value: string) {
    super(
      `Cannot hash ${JSON.stringify(value)}: on-chain keys are computed from folded strings only (A-Z, 2, 6, 9). Pass foldV1(value) instead.`,
    );
  }
}

function assertFolded(folded: string): void {
  if (!isFolded(folded)) throw new NotFoldedError(folded);
}

/** keccak256 of a folded string as 0x-prefixed lowercase hex (the registries' record key). */
export function foldedHash(folded: string): Hex32 {
  assertFolded(folded);
  return `0x${keccak256(folded)}`;
}

/** keccak256 of a folded string as 32 raw bytes (for Solana PDA seeds and Borsh arguments). */
export function foldedHashBytes(folded: string): Uint8Array {
  assertFolded(folded);
  return new Uint8Array(keccak256.arrayBuffer(folded));
}
