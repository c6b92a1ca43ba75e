// Raw JSON-RPC calls for asserting wire-level shapes (codes, data) that client libraries hide.
import { Connection } from "@solana/web3.js";
import type { SolanaRpc } from "../../../scripts/localnet/solana/server";

export interface RpcReply {
  status: number;
  body: { result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

export async function rawRpc(url: string, method: string, params: unknown[] = []): Promise<RpcReply> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

export async function rpcResult<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const reply = await rawRpc(url, method, params);
  if (reply.body.error) throw new Error(`${method}: ${reply.body.error.message}`);
  return reply.body.result as T;
}

/** A stock web3.js connection to the local node, websocket included. */
export function connect(rpc: SolanaRpc): Connection {
  return new Connection(rpc.rpcUrl, { commitment: "confirmed", wsEndpoint: rpc.wsUrl });
}

/**
 * web3.js closes its websocket 500 ms after the last subscription ends; waiting for that before
 * stopping the server keeps its reconnect loop from spamming the test output.
 */
export function letWebsocketIdle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 700));
}
