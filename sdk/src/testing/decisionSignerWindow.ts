// When a registry trusts a decision key, on both chains: validFrom <= now < validUntil (docs/onchain-guard.md).

export interface DecisionSignerWindow {
  /** Unix seconds: trusted from it (inclusive) until validUntil (exclusive). */
  validFrom: bigint;
  validUntil: bigint;
}

const YEAR_SECONDS = 365n * 86_400n;

/** What a test key gets unless the test says otherwise: trusted from `now` (unix seconds) for a year. */
export function yearFrom(now: bigint): DecisionSignerWindow {
  return { validFrom: now, validUntil: now + YEAR_SECONDS };
}
