// Endpoint signing secrets at rest: sealed under the master key, bound to the endpoint id, and the secrets
// that sign a delivery now (the current one, and during a rotation's grace window the previous one too; in the
// sandbox also the partner's sandbox key secrets, X-Service-Signature only: docs/webhooks.md).
import type { SecretBox } from "../../core/secrets/secretBox";
import { openSandboxSigningSecret } from "../partners/sandboxSigningSecret";
import type { PartnerKeySecret } from "./claims";

/** How long a rotated-out secret keeps signing, so receivers can switch without missing a delivery. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

function contextOf(endpointId: string): string {
  return `webhook-secret:${endpointId}`;
}

export function sealEndpointSecret(box: SecretBox, endpointId: string, secret: string): string {
  return box.seal(secret, contextOf(endpointId));
}

export interface SealedSecrets {
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
  partnerKeySecrets: readonly PartnerKeySecret[];
}

/** An endpoint's secrets opened: the current one, and the previous one with the end of its grace window. */
export interface OpenSecrets {
  current: string;
  previous: string | null;
  previousExpiresAt: Date | null;
  /** The partner's live sandbox key secrets (sandbox endpoints only). */
  sandboxKeys: string[];
}

/** What signs one attempt: the endpoint's secrets sign both schemes, the sandbox key secrets X-Service-Signature. */
export interface DeliverySecrets {
  endpoint: readonly string[];
  sandboxKeys: readonly string[];
}

/** Opens an endpoint's secrets (once per claim of its deliveries: opening costs more than signing). */
export function openSecrets(box: SecretBox, endpointId: string, sealed: SealedSecrets): OpenSecrets {
  const open = (value: string) => box.open(value, contextOf(endpointId)).toString("utf8");
  const expires = sealed.previousSecretExpiresAt;
  const previous =
    sealed.previousSecretSealed !== null && expires !== null ? sealed.previousSecretSealed : null;
  return {
    current: open(sealed.secretSealed),
    previous: previous === null ? null : open(previous),
    previousExpiresAt: previous === null ? null : expires,
    sandboxKeys: sealed.partnerKeySecrets.map((key) => openSandboxSigningSecret(box, key.keyId, key.sealed)),
  };
}

/** The secrets that sign at `at`: current first, then the previous one while its grace window lasts. */
export function secretsAt(secrets: OpenSecrets, at: Date): DeliverySecrets {
  const { current, previous, previousExpiresAt, sandboxKeys } = secrets;
  const inGrace =
    previous !== null && previousExpiresAt !== null && previousExpiresAt.getTime() > at.getTime();
  return { endpoint: inGrace ? [current, previous] : [current], sandboxKeys };
}
