// A small launchpad backend on the SDK: it asks the guard before every launch and launches only on
// { launch: true }, reports the launch once the token exists, and receives the service's webhooks, verified
// over the raw body before anything is parsed. The token "deploy" is simulated: a launchpad calls its own
// factory contract there.
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createLaunchGuard,
  createServiceClient,
  type LaunchRefusal,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from "@identity-protection/sdk";
import express from "express";

export interface LaunchpadOptions {
  /** The service's base URL (`/api` is added by the SDK). */
  serviceUrl: string;
  apiKey: string;
  launchpadId: string;
  environment: "sandbox" | "production";
  /** The webhook endpoint's signing secret; a function because it is known only once the endpoint exists. */
  webhookSecret: () => string | undefined;
  log?: (message: string) => void;
}

export interface LaunchRequestBody {
  chain: string;
  name: string;
  ticker: string;
  launcher: string;
}

export type LaunchResult =
  | { launched: true; token: string; requestId: string }
  | { launched: false; reason: LaunchRefusal };

export interface Launchpad {
  url: string;
  /** Verified events, once each (deliveries are retried and replayed with the same id). */
  events: WebhookEvent[];
  close(): Promise<void>;
}

export async function startLaunchpad(options: LaunchpadOptions, port = 0): Promise<Launchpad> {
  const log = options.log ?? (() => undefined);
  const guard = createLaunchGuard({
    baseUrl: options.serviceUrl,
    apiKey: options.apiKey,
    launchpadId: options.launchpadId,
    environment: options.environment,
  });
  const service = createServiceClient({ baseUrl: options.serviceUrl, apiKey: options.apiKey });
  const events: WebhookEvent[] = [];
  const seen = new Set<string>();
  const app = express();

  // The webhook route reads the raw bytes: express.json() would hand over a parsed object, whose
  // re-serialisation is not what was signed.
  app.post("/webhooks", express.raw({ type: "application/json" }), async (req, res) => {
    const secret = options.webhookSecret();
    if (secret === undefined) {
      res.status(503).end();
      return;
    }
    try {
      const event = await verifyWebhook(req.body as Buffer, req.headers, secret);
      if (!seen.has(event.id)) {
        seen.add(event.id);
        events.push(event);
        log(`webhook ${event.type} (${event.id}) verified`);
      }
      res.status(200).end();
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      log(`webhook refused: ${error.reason}`);
      res.status(400).json({ error: error.reason });
    }
  });

  app.post("/launches", express.json(), async (req, res) => {
    const body = req.body as LaunchRequestBody;
    const verdict = await guard.check(body);
    if (!verdict.launch) {
      // Fail closed: no token is deployed on anything but a verified allow.
      log(`launch of ${body.name}/${body.ticker} refused: ${verdict.reason}`);
      res.status(403).json({ launched: false, reason: verdict.reason } satisfies LaunchResult);
      return;
    }
    const token = `0x${randomBytes(20).toString("hex")}`; // your factory's deployment goes here
    // Reported once the token exists; a report is not deduplicated, so it is not retried blindly.
    await service.post("/v1/launches/report", {
      body: { ...body, launchpad: options.launchpadId, tokenOrMint: token },
    });
    log(`launched ${verdict.decision.identityKey} as ${token} (decision ${verdict.decision.requestId})`);
    res
      .status(201)
      .json({ launched: true, token, requestId: verdict.decision.requestId } satisfies LaunchResult);
  });

  const server: Server = await new Promise((resolve, reject) => {
    // Express 5 calls back with the listen error too (a taken port: EADDRINUSE), with no address to read.
    const listening = app.listen(port, "127.0.0.1", (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    events,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
