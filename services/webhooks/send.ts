// One webhook attempt over node:http(s): POST to the checked target, connecting only to the addresses that were
// checked (a pinned lookup, so no second DNS answer is used), never following a redirect, and ending after
// the attempt timeout. The answer's body is read and dropped; only its status matters.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { ReceiverTarget, ResolvedAddress } from "./receiverUrl";

export interface AttemptOutcome {
  /** The receiver's HTTP status; null when none came (refused, unreachable, timed out). */
  status: number | null;
  /** Why there is no status, in a few words; null when a status came. */
  error: string | null;
}

export interface Transport {
  http: HttpAgent;
  https: HttpsAgent;
  /** Extra certificate authorities to trust (tests with a self-signed receiver); the system store otherwise. */
  ca?: string | Buffer | undefined;
}

/** Keep-alive agents: a pooled socket was connected to an address checked when it was opened. */
export function createTransport(ca?: string | Buffer): Transport {
  return {
    http: new HttpAgent({ keepAlive: true, maxSockets: 8 }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: 8 }),
    ca,
  };
}

function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const [first] = addresses;
    if (first === undefined) callback(new Error("no checked address"));
    else if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  }) as unknown as LookupFunction;
}

/** A short description of a transport error (no secrets: they never reach the socket layer's messages). */
function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return (code ? `${code}: ${error.message}` : error.message).slice(0, 200);
}

export function postToReceiver(
  transport: Transport,
  target: ReceiverTarget,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    const secure = target.url.protocol === "https:";
    const send = secure ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const request = send(target.url, {
      method: "POST",
      agent: secure ? transport.https : transport.http,
      lookup: pinnedLookup(target.addresses),
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      ...(secure && transport.ca !== undefined ? { ca: transport.ca } : {}),
    });
    const timer = setTimeout(() => {
      finish({ status: null, error: `no answer within ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    request.on("response", (response: IncomingMessage) => {
      finish({ status: response.statusCode ?? null, error: null });
      response.on("end", () => clearTimeout(timer));
      response.on("error", () => clearTimeout(timer));
      response.resume();
    });
    request.on("error", (error) => {
      clearTimeout(timer);
      finish({ status: null, error: describe(error) });
    });
    request.end(body);
  });
}
