// The program's PDAs, derived exactly as the program derives them (seeds in programs/identity_registry/src).
import { PublicKey } from "@solana/web3.js";

const pda = (programId: PublicKey, seeds: (Buffer | Uint8Array)[]) =>
  PublicKey.findProgramAddressSync(seeds, programId)[0];

/** A PDA of fixed seeds: derived once per program (the bump search costs milliseconds on every prepare). */
function fixedPda(seed: string): (programId: PublicKey) => PublicKey {
  const derived = new Map<string, PublicKey>();
  return (programId) => {
    const key = programId.toBase58();
    let address = derived.get(key);
    if (address === undefined) {
      address = pda(programId, [Buffer.from(seed)]);
      derived.set(key, address);
    }
    return address;
  };
}

export const configAddress = fixedPda("config");
export const treasuryAddress = fixedPda("treasury");
export const localPriceAddress = (programId: PublicKey) => pda(programId, [Buffer.from("price")]);
export const walletAddress = (programId: PublicKey, launcher: PublicKey) =>
  pda(programId, [Buffer.from("wallet"), launcher.toBuffer()]);

const bytes32 = (hash: string | Uint8Array) =>
  typeof hash === "string" ? Buffer.from(hash.replace(/^0x/, ""), "hex") : hash;

/** Hashes are keccak256 of the folded strings (core/fold `foldedHash`), 0x-prefixed hex or bytes. */
export function reservationAddress(
  programId: PublicKey,
  nameHash: string | Uint8Array,
  tickerHash: string | Uint8Array,
) {
  return pda(programId, [Buffer.from("reservation"), bytes32(nameHash), bytes32(tickerHash)]);
}

/** The launcher's commitment account: ["commitment", launcher, commitment (0x hex or bytes)]. */
export const commitmentAddress = (
  programId: PublicKey,
  launcher: PublicKey,
  commitment: string | Uint8Array,
) => pda(programId, [Buffer.from("commitment"), launcher.toBuffer(), bytes32(commitment)]);

/** A base58 public key, or null when `value` is not one. */
export function publicKeyOrNull(value: string): PublicKey | null {
  try {
    return new PublicKey(value);
  } catch {
    return null;
  }
}
