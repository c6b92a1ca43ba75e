// The example's flow against a running service: a sandbox key (self-serve) unless one is given, the
// launchpad started and its webhook endpoint registered, a launch that the guard allows and that is
// reported, a launch that the guard refuses, and the launch.reported webhook received and verified. Then the
// on-chain guard on the service's local chains: a guarded launch of a fresh pair on each, and the copycat's
// launch refused by the SDK and by the chain itself (guardedEvm.ts, guardedSolana.ts).
import { randomBytes } from "node:crypto";
import { createServiceClient, type ServiceClient, type WebhookEvent } from "@identity-protection/sdk";
import { type GuardedEvmResult, runGuardedEvmLaunch } from "./guardedEvm";
import { type GuardedSolanaResult, runGuardedSolanaLaunch } from "./guardedSolana";
import { type Launchpad, type LaunchResult, startLaunchpad } from "./launchpad";
import { type LocalChains, readLocalChains } from "./localChains";
import type { Pair } from "./onchainValidate";

/** A wallet for the demo launches (Hardhat's second dev account); any valid address of the chain works. */
const EVM_LAUNCHER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
/** A seeded sandbox scenario: held for another wallet, so the guard says no to everyone else. */
const HELD_PAIR: Pair = { name: "SandboxFox", ticker: "SFOX" };

export interface DemoOptions {
  serviceUrl: string;
  /** The service's deployment manifest (what `npm start` writes for its local chains). */
  manifestPath: string;
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
  guarded: { evm: GuardedEvmResult; solana: GuardedSolanaResult };
}

async function launch(launchpad: Launchpad, body: object): Promise<LaunchResult> {
  const response = await fetch(`${launchpad.url}/launches`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as LaunchResult;
}

/** The first launch.reported webhook the launchpad verified, waiting up to `timeoutMs` for it. */
async function reportedEvent(
  launchpad: Launchpad,
  timeoutMs: number,
): Promise<WebhookEvent<"launch.reported">> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reported = launchpad.events.find(
      (event): event is WebhookEvent<"launch.reported"> => event.type === "launch.reported",
    );
    if (reported !== undefined) return reported;
    if (Date.now() > deadline) throw new Error("No launch.reported webhook arrived in time.");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A guarded launch of one fresh pair on each local chain, and the copycat's on each, for `launchpadId`. */
async function guardedLaunches(
  chains: LocalChains,
  service: ServiceClient,
  launchpadId: string,
  log: (message: string) => void,
): Promise<DemoResult["guarded"]> {
  const pairs = {
    fresh: { name: `Guarded ${randomBytes(3).toString("hex")}`, ticker: "GUARD" },
    held: HELD_PAIR,
  };
  const evm = await runGuardedEvmLaunch({ service, launchpadId, chain: chains.evm, pairs, log });
  const solana = await runGuardedSolanaLaunch({ service, launchpadId, chain: chains.solana, pairs, log });
  return { evm, solana };
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const log = options.log ?? (() => undefined);
  // Read first: a missing manifest stops the example before it creates anything.
  const localChains = readLocalChains(options.manifestPath);
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
    const refused = await launch(launchpad, { chain, ...HELD_PAIR, launcher: EVM_LAUNCHER });
    log(`launch SandboxFox/SFOX: ${JSON.stringify(refused)}`);
    const reported = await reportedEvent(launchpad, options.webhookTimeoutMs ?? 60_000);

    const guarded = await guardedLaunches(localChains, client, launchpadId, log);
    return { launchpad, allowed, refused, reported, guarded };
  } catch (error) {
    await launchpad.close();
    throw error;
  }
}
