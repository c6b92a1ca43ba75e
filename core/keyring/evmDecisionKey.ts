// The EVM half of a signing key: a secp256k1 key whose EIP-712 launch decisions IdentityGuard contracts verify
// (Ed25519 has no EVM precompile). Generated, sealed and opened beside the Ed25519 key of the same kid, so the two
// share one lifecycle: rotation, overlap, revocation.
import { type Hex, isAddress } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import type { SecretBox } from "../secrets/secretBox";
import { KeyRingError } from "./keyRing";

export interface EvmDecisionKey {
  /** The checksummed address the registries' signer sets hold. */
  address: Hex;
  privateKey: Hex;
}

export function generateEvmDecisionKey(): EvmDecisionKey {
  const privateKey = generatePrivateKey();
  return { address: privateKeyToAddress(privateKey), privateKey };
}

function sealContext(kid: string): string {
  return `evm-signing-key:${kid}`;
}

/** The 32-byte private key sealed under the master key and bound to its kid. */
export function sealEvmPrivateKey(box: SecretBox, kid: string, privateKey: Hex): string {
  return box.seal(Buffer.from(privateKey.slice(2), "hex"), sealContext(kid));
}

/** Opens the sealed key of `kid` and checks it is the key of `address`, so a swapped row never signs. */
export function openEvmDecisionKey(
  box: SecretBox,
  kid: string,
  address: string,
  sealed: string,
): EvmDecisionKey {
  const privateKey: Hex = `0x${box.open(sealed, sealContext(kid)).toString("hex")}`;
  const derived = privateKeyToAddress(privateKey);
  if (!isAddress(address) || derived.toLowerCase() !== address.toLowerCase()) {
    throw new KeyRingError(
      `The sealed EVM key of ${kid} does not match its address ${address}; the key ring is corrupted.`,
    );
  }
  return { address: derived, privateKey };
}
