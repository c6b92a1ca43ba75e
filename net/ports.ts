// Binding ports with a clear message when one is taken; used by the embedded database, the API and the
// local chains.
import { createServer, type Server } from "node:net";
import { ServiceError } from "../core/errors/serviceError";

export class PortInUseError extends ServiceError {
  constructor(
    readonly port: number,
    readonly service: string,
    readonly setting: string,
  ) {
    super(
      `Port ${port} (${service}) is already in use. Stop the process that holds it, or pick another port with ${setting}.`,
    );
  }
}

export interface PortClaim {
  port: number;
  /** What runs on the port, e.g. "Solana RPC". */
  service: string;
  /** The option or variable that changes it, named in the error. */
  setting: string;
}

/** Starts `server` listening; a taken port becomes a PortInUseError naming the setting to change. */
export function listen(
  server: Server | import("node:http").Server,
  host: string,
  claim: PortClaim,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      reject(
        error.code === "EADDRINUSE" ? new PortInUseError(claim.port, claim.service, claim.setting) : error,
      );
    };
    const onListening = () => {
      server.off("error", onError);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : claim.port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(claim.port, host);
  });
}

/** Fails with PortInUseError when a child process would not be able to bind `claim.port`. */
export async function assertPortFree(host: string, claim: PortClaim): Promise<void> {
  const probe = createServer();
  await listen(probe, host, claim);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
