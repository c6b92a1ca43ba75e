import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { errorEnvelope } from "../core/errors/catalogue";
import { assertPortFree } from "../net/ports";
import type { ApiHandler } from "./app";
import { sendJson } from "./platform/jsonResponse";
import { RESPONSE_VERSION } from "./platform/responseVersion";

/**
 * Requests Node's HTTP parser rejects (bad framing, oversized headers) never reach Express; answer them with
 * the error envelope too instead of Node's bare 400.
 */
function answerMalformedRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const body = JSON.stringify({
    ...errorEnvelope(
      "invalid_request",
      tooLarge
        ? "The request headers are too large."
        : "The HTTP request is malformed and could not be parsed.",
    ),
    responseVersion: RESPONSE_VERSION,
  });
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Node answers an `Expect` other than 100-continue itself, with a bare 417 and no body, unless the server
 * listens for it: answer with the envelope instead. The request is not served.
 */
function answerUnmetExpectation(_req: IncomingMessage, res: ServerResponse): void {
  sendJson(res, 417, errorEnvelope("expectation_failed", undefined, { header: "Expect" }));
}

export interface RunningServer {
  url: string;
  /**
   * Stops accepting connections; requests already received are answered (with `Connection: close`) for up to
   * `graceMs`, then any still open are cut. Without `graceMs` open connections are cut at once. Then the app's
   * queued writes (request log) are written, before the caller closes the database.
   */
  close(graceMs?: number): Promise<void>;
}

export async function listen(
  app: ApiHandler,
  host: string,
  port: number,
  setting = "PORT",
): Promise<RunningServer> {
  if (port !== 0) await assertPortFree(host, { port, service: "API", setting });
  const server: Server = createServer(app);
  server.on("clientError", answerMalformedRequest);
  server.on("checkExpectation", answerUnmetExpectation);
  const open = new Set<ServerResponse>();
  let draining = false;
  let drained = () => {};
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once("close", () => {
      open.delete(res);
      if (open.size === 0) drained();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}`,
    close: async (graceMs = 0) => {
      draining = true;
      // Keep-alive clients learn from their next answer to reconnect elsewhere.
      for (const res of open) if (!res.headersSent) res.shouldKeepAlive = false;
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      if (open.size > 0 && graceMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          drained = resolve;
          timer = setTimeout(resolve, graceMs);
        });
        clearTimeout(timer);
      }
      server.closeAllConnections();
      await closed;
      await app.drain();
    },
  };
}
