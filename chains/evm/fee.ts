// The EVM registry's fee rule (contracts/IdentityRegistry.sol), for quotes made without a chain (the sandbox):
// ceil(tierUsdMicros * 10^(12 + feedDecimals) / answer) wei.
export function feeWei(usdMicros: bigint, answer: bigint, feedDecimals: number): bigint {
  const numerator = usdMicros * 10n ** BigInt(12 + feedDecimals);
  return (numerator + answer - 1n) / answer;
}
