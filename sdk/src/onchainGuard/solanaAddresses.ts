// The PDAs a signed launch names, derived as the programs derive them (programs/guarded_launchpad/src/layout.h,
// programs/identity_registry's seeds).
import { PublicKey } from "@solana/web3.js";

const seed = (text: string) => new TextEncoder().encode(text);

/** The config PDA ["config"]: the launchpad's LaunchpadConfig, or the registry's Config under its own id. */
export function configAddress(programId: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([seed("config")], programId)[0];
}

/** The registry's reservation PDA ["reservation", nameHash, tickerHash] of a folded pair, held or not. */
export function reservationAddress(
  registryProgram: PublicKey,
  nameHash: Uint8Array,
  tickerHash: Uint8Array,
): PublicKey {
  return PublicKey.findProgramAddressSync([seed("reservation"), nameHash, tickerHash], registryProgram)[0];
}
