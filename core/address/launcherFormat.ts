// Wallet address formats per chain family, checked before deciding so a typo never reads as "not the
// authorized launcher".
import { ApiError } from "../errors/catalogue";
import type { ChainFamily } from "../status";

const FORMATS: Readonly<Record<ChainFamily, { pattern: RegExp; description: string }>> = {
  evm: { pattern: /^0x[0-9a-fA-F]{40}$/, description: "a 0x-prefixed 20-byte hex address" },
  solana: { pattern: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/, description: "a base58 Solana public key" },
};

/** The family whose address format `launcher` has, or null when it fits none (the formats never overlap). */
export function launcherFamily(launcher: string): ChainFamily | null {
  for (const family of Object.keys(FORMATS) as ChainFamily[]) {
    if (FORMATS[family].pattern.test(launcher)) return family;
  }
  return null;
}

/** The family of `launcher` when no chain is named; throws 400 invalid_request when it fits no family. */
export function assertLauncherFamily(launcher: string, field = "launcher"): ChainFamily {
  const family = launcherFamily(launcher);
  if (family === null) {
    throw new ApiError(
      "invalid_request",
      `\`${field}\` must be ${FORMATS.evm.description} (EVM chains) or ${FORMATS.solana.description} (Solana chains).`,
      { field },
    );
  }
  return family;
}

/** Throws 400 invalid_request unless `launcher` is an address of the chain's family. */
export function assertLauncherFormat(
  launcher: string,
  family: ChainFamily,
  chain: string,
  field = "launcher",
): void {
  const format = FORMATS[family];
  if (!format.pattern.test(launcher)) {
    throw new ApiError("invalid_request", `\`${field}\` must be ${format.description} on chain ${chain}.`, {
      field,
      chain,
    });
  }
}
