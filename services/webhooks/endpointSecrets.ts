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

/** The secrets that sign at `at`: current first, then the previous one while its grace window lasts. */
export function signingSecrets(
  box: SecretBox,
  endpointId: string,
  sealed: SealedSecrets,
  at: Date,
): string[] {
  const open = (value: string) => box.open(value, contextOf(endpointId)).toString("utf8");
  const secrets = [open(sealed.secretSealed)];
  const expires = sealed.previousSecretExpiresAt;
  if (sealed.previousSecretSealed !== null && expires !== null && expires.getTime() > at.getTime()) {
    secrets.push(open(sealed.previousSecretSealed));
  }
  return secrets;
}
