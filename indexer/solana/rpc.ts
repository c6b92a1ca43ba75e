// A minimal Solana JSON-RPC client for the indexer: every call retries with exponential backoff on
// 429, 5xx, timeouts and dropped connections, because hosted RPC providers and busy nodes do all of these.
import { ServiceError } from "../../core/errors/serviceError";
export interface RpcRetryPolicy {
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  timeoutMs: number;
}

export const DEFAULT_RETRY: RpcRetryPolicy = {
  attempts: 8,
  initialDelayMs: 100,
  maxDelayMs: 5_000,
  timeoutMs: 10_000,
};

/** A JSON-RPC error answer: the request was understood and refused, so retrying it cannot help. */
export class SolanaRpcError extends ServiceError {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method} failed: ${message} (code ${code})`);
  }
}

/** The RPC stayed unreachable or overloaded through every retry. */
export class RpcUnavailableError extends ServiceError {
  constructor(method: string, cause: string) {
    super(
      `${method}: the Solana RPC stayed unavailable after retries (${cause}); check the RPC URL or provider.`,
    );
  }
}

class RetryableError extends ServiceError {}

export type RpcCall = <T>(method: string, params: unknown[]) => Promise<T>;

export function solanaRpc(url: string, policy: RpcRetryPolicy = DEFAULT_RETRY): RpcCall {
  let id = 0;
  const once = async <T>(method: string, params: unknown[]): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
        signal: AbortSignal.timeout(policy.timeoutMs),
      });
    } catch (error) {
      throw new RetryableError((error as Error).message);
    }
    if (response.status === 429 || response.status >= 500) {
      throw new RetryableError(`HTTP ${response.status}`);
    }
    let body: { result?: T; error?: { code: number; message: string } };
    try {
      body = (await response.json()) as typeof body;
    } catch (error) {
      throw new RetryableError(`unreadable answer: ${(error as Error).message}`);
    }
    if (body.error) throw new SolanaRpcError(method, body.error.code, body.error.message);
    return body.result as T;
  };
  return async <T>(method: string, params: unknown[]): Promise<T> => {
    let delay = policy.initialDelayMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await once<T>(method, params);
      } catch (error) {
        if (!(error instanceof RetryableError)) throw error;
        if (attempt >= policy.attempts) throw new RpcUnavailableError(method, error.message);
        // Full jitter: many indexers backing off together do not hit the provider in lockstep.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * delay));
        delay = Math.min(delay * 2, policy.maxDelayMs);
      }
    }
  };
}
