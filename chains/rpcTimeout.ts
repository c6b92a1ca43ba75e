// How long a registry client waits for one RPC answer. An API request that reads a chain must fail closed
// (503) in bounded time, and neither web3.js nor a hung node bounds it by itself.
export const DEFAULT_RPC_TIMEOUT_MS = 8_000;

/**
 * How long a decision waits for a registry read when the chain's mirror cannot decide (on-chain first). Well
 * inside the decision data path's 2 s bound, so a validation still signs `recheck_required` when the RPC hangs.
 */
export const DEFAULT_CHAIN_READ_TIMEOUT_MS = 1_000;

/** `fetch` that aborts a request after `timeoutMs`. */
export function fetchWithTimeout(timeoutMs: number): typeof fetch {
  return (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
}
