// The Solana JSON-RPC node: HTTP on one port, PubSub websocket on the next (as validators do,
// and as web3.js assumes), both over one SolanaChain. Fault injection applies to HTTP.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { listen } from "../../../net/ports";
import { SolanaChain, type SolanaChainOptions } from "./chain";
import type { InjectedFailure } from "./faults";
import { ADMIN_METHOD_PREFIX, rpcMethods } from "./methods";
import type { Params } from "./params";
import { RpcError, RpcErrorCode } from "./rpcError";
import { SubscriptionHub } from "./subscriptions";

export interface SolanaRpcOptions extends SolanaChainOptions {
  host?: string;
  /** HTTP JSON-RPC port; 0 picks a free one. */
  port?: number;
  /** Websocket port; defaults to `port + 1` (0 when `port` is 0). */
  wsPort?: number;
}

export interface SolanaRpc {
  chain: SolanaChain;
  rpcUrl: string;
  wsUrl: string;
  /** Closes every websocket, as when a node restarts; clients must resubscribe. */
  dropWebsockets(): void;
  stop(): Promise<void>;
}

interface JsonRpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const MAX_BODY_BYTES = 50 * 1024 * 1024;
const STATUS_TEXT: Record<number, string> = {
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

function errorResponse(id: unknown, error: unknown) {
  if (error instanceof RpcError) {
    return {
      jsonrpc: "2.0",
      error: {
        code: error.code,
        message: error.message,
        ...(error.data === undefined ? {} : { data: error.data }),
      },
      id,
    };
  }
  return {
    jsonrpc: "2.0",
    error: { code: RpcErrorCode.internalError, message: `Internal error: ${(error as Error).message}` },
    id: id ?? null,
  };
}

function handleCall(request: JsonRpcRequest, call: (method: string, params: Params) => unknown) {
  const id = typeof request === "object" && request !== null ? (request.id ?? null) : null;
  if (
    typeof request !== "object" ||
    request === null ||
    request.jsonrpc !== "2.0" ||
    typeof request.method !== "string"
  ) {
    return errorResponse(id, new RpcError(RpcErrorCode.invalidRequest, "Invalid request"));
  }
  const params = request.params === undefined ? [] : request.params;
  if (!Array.isArray(params))
    return errorResponse(
      id,
      new RpcError(RpcErrorCode.invalidParams, "Invalid params: params must be an array"),
    );
  try {
    return { jsonrpc: "2.0", result: call(request.method, params), id };
  } catch (error) {
    return errorResponse(id, error);
  }
}

function callMethod(chain: SolanaChain, method: string, params: Params): unknown {
  const handler = Object.hasOwn(rpcMethods, method) ? rpcMethods[method] : undefined;
  if (!handler) throw new RpcError(RpcErrorCode.methodNotFound, "Method not found");
  return handler(params, chain);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new RpcError(RpcErrorCode.invalidRequest, "Request too large"));
      else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function firstMethod(body: unknown): string | undefined {
  const first = Array.isArray(body) ? body[0] : body;
  const method = (first as JsonRpcRequest | undefined)?.method;
  return typeof method === "string" ? method : undefined;
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

function serveFailure(
  response: ServerResponse,
  failure: Exclude<InjectedFailure, "timeout">,
  id: unknown,
): void {
  const headers: Record<string, string> = failure === 429 ? { "retry-after": "1" } : {};
  const message = failure === 429 ? "Too many requests for a specific RPC call" : STATUS_TEXT[failure];
  sendJson(
    response,
    failure,
    { jsonrpc: "2.0", error: { code: failure === 429 ? 429 : -32603, message }, id },
    headers,
  );
}

export async function startSolanaRpc(options: SolanaRpcOptions = {}): Promise<SolanaRpc> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 8899;
  const chain = new SolanaChain(options);
  const hub = new SubscriptionHub(chain);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
  const held = new Set<ServerResponse>();
  const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === "GET" && request.url === "/health") {
      response.end("ok");
      return;
    }
    if (request.method !== "POST") {
      response.writeHead(405, { allow: "POST" }).end("Send JSON-RPC requests with POST.");
      return;
    }
    const text = await readBody(request);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      sendJson(response, 200, {
        jsonrpc: "2.0",
        error: { code: RpcErrorCode.parseError, message: "Parse error" },
        id: null,
      });
      return;
    }
    const method = firstMethod(body);
    const isAdmin = method?.startsWith(ADMIN_METHOD_PREFIX) === true;
    if (!isAdmin && chain.faults.latencyMs > 0) await delay(chain.faults.latencyMs);
    const failure = isAdmin ? undefined : chain.faults.failureFor(method);
    if (failure === "timeout") {
      held.add(response);
      await delay(chain.faults.timeoutMs);
      held.delete(response);
      response.destroy();
      return;
    }
    const id = Array.isArray(body) ? null : ((body as JsonRpcRequest)?.id ?? null);
    if (failure !== undefined) {
      serveFailure(response, failure, id);
      return;
    }
    const behind = isAdmin ? 0 : chain.faults.replicaLagFor(method);
    const call = (name: string, params: Params) =>
      chain.ledger.answerBehind(behind, () => callMethod(chain, name, params));
    if (Array.isArray(body)) {
      if (body.length === 0)
        sendJson(
          response,
          200,
          errorResponse(null, new RpcError(RpcErrorCode.invalidRequest, "Invalid request")),
        );
      else
        sendJson(
          response,
          200,
          body.map((item) => handleCall(item as JsonRpcRequest, call)),
        );
      return;
    }
    sendJson(response, 200, handleCall(body as JsonRpcRequest, call));
  }

  wss.on("connection", (socket: WebSocket) => {
    socket.on("message", (data) => {
      let request: JsonRpcRequest;
      try {
        request = JSON.parse(data.toString());
      } catch {
        socket.send(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: RpcErrorCode.parseError, message: "Parse error" },
            id: null,
          }),
        );
        return;
      }
      const reply = handleCall(request, (method, params) => hub.call(socket, method, params));
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(reply));
    });
    socket.on("close", () => hub.dropSocket(socket));
  });

  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
  const http: Server = createServer((request, response) => {
    onRequest(request, response).catch((error) => {
      if (!response.headersSent) sendJson(response, 500, errorResponse(null, error));
    });
  });
  http.on("upgrade", upgrade);
  const ws: Server = createServer((_request, response) => {
    response.writeHead(426, { upgrade: "websocket" }).end("This port serves the Solana PubSub websocket.");
  });
  ws.on("upgrade", upgrade);

  const rpcPort = await listen(http, host, {
    port,
    service: "Solana RPC",
    setting: "--solana-port / LOCALNET_SOLANA_PORT",
  });
  let wsPort: number;
  try {
    wsPort = await listen(ws, host, {
      port: options.wsPort ?? (port === 0 ? 0 : port + 1),
      service: "Solana websocket",
      setting: "--solana-ws-port / LOCALNET_SOLANA_WS_PORT (defaults to the RPC port + 1)",
    });
  } catch (error) {
    http.close();
    throw error;
  }
  chain.start();

  const dropWebsockets = () => {
    for (const client of wss.clients) client.terminate();
  };
  return {
    chain,
    rpcUrl: `http://${host}:${rpcPort}`,
    wsUrl: `ws://${host}:${wsPort}`,
    dropWebsockets,
    async stop() {
      chain.stop();
      hub.close();
      dropWebsockets();
      for (const response of held) response.destroy();
      const close = (server: Server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      await Promise.all([close(http), close(ws)]);
      wss.close();
    },
  };
}
