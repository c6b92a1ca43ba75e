// How long a registry client waits for one RPC answer. An API request that reads a chain must fail closed
// (503) in bounded time, and neither web3.js nor a hung node bounds it by itself.
export const DEFAULT_RPC_TIMEOUT_MS = 8_000;

/** `fetch` that aborts a request after `timeoutMs`. */
export function fetchWithTimeout(timeoutMs: number): typeof fetch {
  return (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
}
