// Wallet address formats per chain family, checked before deciding so a typo never reads as "not the
// authorized launcher".
import { ApiError } from "../errors/catalogue";
import type { ChainFamily } from "../status";

const FORMATS: Readonly<Record<ChainFamily, { pattern: RegExp; description: string }>> = {
  evm: { pattern: /^0x[0-9a-fA-F]{40}$/, description: "a 0x-prefixed 20-byte hex address" },
  solana: { pattern: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/, description: "a base58 Solana public key" },
};

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
