// The example's flow against a running service: a sandbox key (self-serve) unless one is given, the
// launchpad started and its webhook endpoint registered, a launch that the guard allows and that is
// reported, a launch that the guard refuses, and the launch.reported webhook received and verified.
import { randomBytes } from "node:crypto";
import { createServiceClient, type WebhookEvent } from "@identity-protection/sdk";
import { type Launchpad, type LaunchResult, startLaunchpad } from "./launchpad";

/** A wallet for the demo launches (Hardhat's second dev account); any valid address of the chain works. */
const EVM_LAUNCHER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

export interface DemoOptions {
  serviceUrl: string;
  /** A sandbox key; when absent one is created with POST /v1/sandbox/keys. */
  apiKey?: string;
  /** Defaults to a fresh `example-<hex>` id, which the sandbox lets its first user claim. */
  launchpadId?: string;
  /** Port of the launchpad (0: any free one). */
  port?: number;
  /** How long to wait for the webhook. */
  webhookTimeoutMs?: number;
  log?: (message: string) => void;
}

export interface DemoResult {
  launchpad: Launchpad;
  allowed: LaunchResult;
  refused: LaunchResult;
  reported: WebhookEvent<"launch.reported">;
}

async function launch(launchpad: Launchpad, body: object): Promise<LaunchResult> {
  const response = await fetch(`${launchpad.url}/launches`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as LaunchResult;
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const log = options.log ?? (() => undefined);
  const publicClient = createServiceClient({ baseUrl: options.serviceUrl });
  let apiKey = options.apiKey;
  if (apiKey === undefined) {
    const created = await publicClient.post("/v1/sandbox/keys", {
      body: { organization: "Example Launchpad", email: "dev@example.com", label: "examples/launchpad" },
    });
    apiKey = created.apiKey;
    log(`created a sandbox key (${apiKey.slice(0, 12)}...)`);
  }
  const launchpadId = options.launchpadId ?? `example-${randomBytes(4).toString("hex")}`;
  let webhookSecret: string | undefined;
  const launchpad = await startLaunchpad(
    {
      serviceUrl: options.serviceUrl,
      apiKey,
      launchpadId,
      environment: "sandbox",
      webhookSecret: () => webhookSecret,
      log,
    },
    options.port ?? 0,
  );
  try {
    const client = createServiceClient({ baseUrl: options.serviceUrl, apiKey });
    const endpoint = await client.post("/v1/webhooks", {
      body: { url: `${launchpad.url}/webhooks`, events: ["launch.reported", "launch.blocked"] },
    });
    webhookSecret = endpoint.signingSecret;
    log(`launchpad ${launchpadId} on ${launchpad.url}, webhooks registered`);

    const { chains } = await publicClient.get("/v1/chains");
    const chain = chains.find((entry) => entry.family === "evm")?.chain;
    if (chain === undefined) throw new Error("The service lists no EVM chain.");

    const name = `Example ${randomBytes(3).toString("hex")}`;
    const allowed = await launch(launchpad, { chain, name, ticker: "EXMPL", launcher: EVM_LAUNCHER });
    log(`launch ${name}/EXMPL: ${JSON.stringify(allowed)}`);
    // A seeded sandbox scenario: held for another wallet, so the guard says no.
    const refused = await launch(launchpad, {
      chain,
      name: "SandboxFox",
      ticker: "SFOX",
      launcher: EVM_LAUNCHER,
    });
    log(`launch SandboxFox/SFOX: ${JSON.stringify(refused)}`);

    const deadline = Date.now() + (options.webhookTimeoutMs ?? 60_000);
    for (;;) {
      const reported = launchpad.events.find(
        (event): event is WebhookEvent<"launch.reported"> => event.type === "launch.reported",
      );
      if (reported !== undefined) return { launchpad, allowed, refused, reported };
      if (Date.now() > deadline) throw new Error("No launch.reported webhook arrived in time.");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await launchpad.close();
    throw error;
  }
}
