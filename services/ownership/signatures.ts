// Whether a signature proves that an address signed a message. EVM: EIP-191 personal-sign; a key's signature is
// recovered locally (no RPC), anything else is asked of the chain so a smart account answers through ERC-1271.
// Solana: Ed25519 over the message's UTF-8 bytes with the address as the public key.
import { utils } from "@coral-xyz/anchor";
import { verifyAsync } from "@noble/ed25519";
import { PublicKey } from "@solana/web3.js";
import { recoverMessageAddress } from "viem";
import type { EvmMessageVerifier } from "../../chains/registryClient";
import { sameOnChain } from "../../core/address/equality";
import type { ChainFamily } from "../../core/status";

/** How ownership was proven. */
export type ProofKind = "eoa" | "erc1271" | "ed25519";

export interface SignedClaim {
  family: ChainFamily;
  address: string;
  message: string;
  signature: string;
}

/** 64 bytes (EIP-2098 compact) or more (65-byte ECDSA, ERC-1271 account signatures). */
const EVM_SIGNATURE = /^0x[0-9a-fA-F]{128,}$/;
const ED25519_SIGNATURE_BYTES = 64;

/** Whether `signature` is written the way its family writes signatures (EVM 0x hex, Solana base58 of 64 bytes). */
export function signatureFamilyOf(signature: string): ChainFamily | null {
  if (EVM_SIGNATURE.test(signature) && signature.length % 2 === 0) return "evm";
  try {
    if (utils.bytes.bs58.decode(signature).length === ED25519_SIGNATURE_BYTES) return "solana";
  } catch {
    // not base58
  }
  return null;
}

async function recoveredSigner(message: string, signature: `0x${string}`): Promise<string | null> {
  try {
    return await recoverMessageAddress({ message, signature });
  } catch {
    return null;
  }
}

async function evmProof(
  claim: SignedClaim,
  chain: EvmMessageVerifier | undefined,
): Promise<ProofKind | null> {
  const signature = claim.signature as `0x${string}`;
  const signer = await recoveredSigner(claim.message, signature);
  if (signer !== null && sameOnChain("evm", signer, claim.address)) return "eoa";
  if (chain === undefined) return null;
  const answer = await chain.verifyMessage(claim.address as `0x${string}`, claim.message, signature);
  return answer.valid && answer.contract ? "erc1271" : null;
}

async function solanaProof(claim: SignedClaim): Promise<ProofKind | null> {
  const valid = await verifyAsync(
    utils.bytes.bs58.decode(claim.signature),
    new TextEncoder().encode(claim.message),
    new PublicKey(claim.address).toBytes(),
  ).catch(() => false);
  return valid ? "ed25519" : null;
}

/**
 * The proof the signature makes, or null when it proves nothing. `chain` (EVM) lets contract accounts answer;
 * without it only keys can prove. Throws ChainUnavailableError when the chain must be asked and does not answer.
 */
export async function provenBy(
  claim: SignedClaim,
  chain: EvmMessageVerifier | undefined,
): Promise<ProofKind | null> {
  return claim.family === "evm" ? evmProof(claim, chain) : solanaProof(claim);
}
