import { createServer, type Server } from "node:http";
import type { Express } from "express";
import { assertPortFree } from "../storage/portCheck";

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function listen(
  app: Express,
  host: string,
  port: number,
  setting = "PORT",
): Promise<RunningServer> {
  if (port !== 0) await assertPortFree(host, port, setting);
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
