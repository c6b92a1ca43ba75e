// A minimal Solana JSON-RPC client for the indexer: every call retries with exponential backoff on
// 429, 5xx, timeouts, dropped connections and nodes behind the asked `minContextSlot`, because hosted RPC
// providers, load balancers and busy nodes do all of these.
import { setTimeout as sleep } from "node:timers/promises";
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

/**
 * The answering node has not reached the call's `minContextSlot`: behind a load balancer, a node behind its peers.
 * Retried: the next try may reach another node, or this one once it has caught up.
 */
const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;

/** The caller abandoned the call (the watchdog restarting a hung loop): never retried. */
export class RpcAbandonedError extends ServiceError {
  constructor(method: string, cause: unknown) {
    super(`${method} abandoned: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** A call; `signal` abandons it, its retries and the wait between them at once. */
export type RpcCall = <T>(method: string, params: unknown[], signal?: AbortSignal) => Promise<T>;

export function solanaRpc(url: string, policy: RpcRetryPolicy = DEFAULT_RETRY): RpcCall {
  let id = 0;
  const once = async <T>(method: string, params: unknown[], signal?: AbortSignal): Promise<T> => {
    let response: Response;
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
        signal: signal === undefined ? timeout : AbortSignal.any([timeout, signal]),
      });
    } catch (error) {
      if (signal?.aborted) throw new RpcAbandonedError(method, signal.reason);
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
    if (body.error?.code === MIN_CONTEXT_SLOT_NOT_REACHED) throw new RetryableError(body.error.message);
    if (body.error) throw new SolanaRpcError(method, body.error.code, body.error.message);
    return body.result as T;
  };
  return async <T>(method: string, params: unknown[], signal?: AbortSignal): Promise<T> => {
    let delay = policy.initialDelayMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await once<T>(method, params, signal);
      } catch (error) {
        if (!(error instanceof RetryableError)) throw error;
        if (attempt >= policy.attempts) throw new RpcUnavailableError(method, error.message);
        // Full jitter: many indexers backing off together do not hit the provider in lockstep.
        try {
          await sleep(Math.random() * delay, undefined, { signal });
        } catch (aborted) {
          throw new RpcAbandonedError(method, signal?.reason ?? aborted);
        }
        delay = Math.min(delay * 2, policy.maxDelayMs);
      }
    }
  };
}
