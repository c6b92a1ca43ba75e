// The composition root of the use cases: one service object per context, built once from the pool, the master
// key, the clock, the decision settings and the chains' registries. The API hands these to its routes; no
// route reaches past them for a pool or a settings bag.
import type { Pool } from "pg";
import type { RegistryCatalogue } from "../chains/registryClient";
import { DEFAULT_CHAIN_READ_TIMEOUT_MS } from "../chains/rpcTimeout";
import { createSecretBox } from "../core/secrets/secretBox";
import { createDataPath, type DecisionOptions } from "./dataPath";
import { type DisputesService, disputesService } from "./disputes";
import { chainReader, type IdentityService, identityService } from "./identity";
import { type MirrorService, mirrorService } from "./mirror";
import { type PartnerMailOptions, type PartnersService, partnersService } from "./partners";
import { type ReservationService, reservationService } from "./reservations";
import { type RevenueService, revenueService } from "./revenue";
import { type SandboxService, sandboxService } from "./sandbox";
import { type SigningService, signingService } from "./signing";
import { activeSigners } from "./signing/activeSigner";
import { type WebhookSettings, type WebhooksService, webhooksService } from "./webhooks";

export { type DecisionOptions, prepareDecisionData } from "./dataPath";

export interface ServiceOptions {
  pool: Pool;
  /** Seals signing keys and sandbox keys' signing secrets; without it validation and sandbox sign-up answer 503. */
  masterKey?: Buffer | undefined;
  /** Clock in ms since the epoch. */
  now: () => number;
  /** Chains, freshness bound and data-path timeout of the decisions. */
  decisions?: DecisionOptions | undefined;
  /** The chains' registries (chains/catalogue.ts); without them reservation and Solana helper calls answer 503. */
  registries?: RegistryCatalogue | undefined;
  /** The receiver rule's local exception and DNS; without them only public HTTPS receivers are accepted. */
  webhooks?: WebhookSettings | undefined;
  /** Partner mail (verification, rotation notices); without it sandbox sign-up answers 503 mail_unavailable. */
  mail?: PartnerMailOptions | undefined;
  /** Where background failures (request log writes, mail) are reported. */
  log?: ((line: string) => void) | undefined;
}

export interface Services {
  identity: IdentityService;
  signing: SigningService;
  mirror: MirrorService;
  reservations: ReservationService;
  partners: PartnersService;
  revenue: RevenueService;
  sandbox: SandboxService;
  webhooks: WebhooksService;
  disputes: DisputesService;
}

export function createServices(options: ServiceOptions): Services {
  const { pool, now } = options;
  const box = options.masterKey === undefined ? undefined : createSecretBox(options.masterKey);
  // The decision services share one data path: one start-up, one evaluation context rule.
  const data = createDataPath(pool, box, now, options.decisions);
  return {
    identity: identityService(
      data,
      activeSigners(box),
      chainReader(
        options.registries?.production,
        options.decisions?.chainReadTimeoutMs ?? DEFAULT_CHAIN_READ_TIMEOUT_MS,
        now,
      ),
      options.registries,
    ),
    signing: signingService(pool, now),
    mirror: mirrorService(pool, now, options.decisions?.dataPathTimeoutMs),
    reservations: reservationService(data, options.registries, now),
    partners: partnersService({ pool, box, mail: options.mail, now, log: options.log ?? (() => undefined) }),
    revenue: revenueService(pool, options.registries, now),
    sandbox: sandboxService(data),
    webhooks: webhooksService(pool, box, now, options.webhooks ?? { allowLocalReceivers: false }),
    disputes: disputesService(pool, options.registries, now),
  };
}
