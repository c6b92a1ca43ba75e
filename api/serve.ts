// The API served from a role's configuration: the one place where `npm start` and `npm run api` turn the
// settings, the database and the deployment manifest into a listening server.
import type { Pool } from "pg";
import type { RegistryCatalogue } from "../chains/registryClient";
import type { Config } from "../config";
import type { DeploymentManifest } from "../config/manifest";
import { prepareDecisionData } from "../services";
import { createMailer } from "../services/mail";
import { manifestChains } from "../services/mirror/chainCatalogue";
import { type Logger, lineSink } from "../telemetry/log";
import { createApp } from "./app";
import { applyApiHeapPolicy } from "./heapPolicy";
import { listen, type RunningServer } from "./server";

export interface ServeOptions {
  config: Config;
  pool: Pool;
  manifest: DeploymentManifest;
  registries: RegistryCatalogue;
  masterKey: Buffer;
  /** The role's logger: the app logs its failures, partner mail its files, each as a component. */
  log: Logger;
}

/** Signing keys ready (so GET /v1/keys lists keys from the first second), then listening. */
export async function serveApi(options: ServeOptions): Promise<RunningServer> {
  const { config, pool, masterKey } = options;
  applyApiHeapPolicy();
  const chains = manifestChains(options.manifest);
  await prepareDecisionData(pool, masterKey);
  const app = createApp({
    pool,
    startedAt: new Date(),
    log: options.log,
    hosts: config.hosts,
    masterKey,
    keylessRateLimitPerMinute: config.keylessRateLimitPerMinute,
    decisions: { chains },
    registries: options.registries,
    webhooks: { allowLocalReceivers: config.webhooks.allowLocalReceivers },
    mail: {
      mailer: createMailer(config.mail, lineSink(options.log.child({ component: "mail" }))),
      publicUrl: config.mail.publicUrl,
    },
  });
  return listen(app, config.api.host, config.api.port);
}
