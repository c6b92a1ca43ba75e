// Endpoint signing secrets at rest: sealed under the master key, bound to the endpoint id, and the secrets
// that sign a delivery now (the current one, and during a rotation's grace window the previous one too).
import type { SecretBox } from "../../core/secrets/secretBox";

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
}

/** An endpoint's secrets opened: the current one, and the previous one with the end of its grace window. */
export interface OpenSecrets {
  current: string;
  previous: string | null;
  previousExpiresAt: Date | null;
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
  };
}

/** The secrets that sign at `at`: current first, then the previous one while its grace window lasts. */
export function secretsAt(secrets: OpenSecrets, at: Date): string[] {
  const { current, previous, previousExpiresAt } = secrets;
  return previous !== null && previousExpiresAt !== null && previousExpiresAt.getTime() > at.getTime()
    ? [current, previous]
    : [current];
}
