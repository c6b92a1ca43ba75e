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

// Ports handed to a child process (which binds them later) come from below Linux's ephemeral range
// (32768-60999 by default). The kernel draws from that range for every bind to port 0 and every outgoing
// connection, so a port found free there can be taken by anything before the child binds it; below it, only
// another hand-out can, and this process never hands out the same port twice in a row of the range.
const HANDED_OUT_FIRST = 20_000;
const HANDED_OUT_END = 32_000;
const HANDED_OUT_COUNT = HANDED_OUT_END - HANDED_OUT_FIRST;
/** Each process starts at its own place in the range, so two test runs side by side seldom meet. */
let nextHandedOut = HANDED_OUT_FIRST + ((process.pid * 7919) % HANDED_OUT_COUNT);

function bindsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/** A port on `host` that nothing listens on now and that the kernel will not hand out for port 0. */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  for (let tried = 0; tried < HANDED_OUT_COUNT; tried++) {
    const port = nextHandedOut;
    nextHandedOut = port + 1 === HANDED_OUT_END ? HANDED_OUT_FIRST : port + 1;
    if (await bindsFree(host, port)) return port;
  }
  throw new Error(`No free port on ${host} between ${HANDED_OUT_FIRST} and ${HANDED_OUT_END}.`);
}
