// A sandbox key's signing secret (`svc_sigsec_…`, shown once at creation and rotation): it signs the sandbox's
// webhook deliveries to the key's partner beside each endpoint's own secret (docs/webhooks.md), so a partner can
// verify sandbox webhooks with the one secret it got with its key. At rest it is sealed under the master key,
// bound to the key id, so a sealed value copied onto another key does not open.
import { randomBytes } from "node:crypto";
import type { SecretBox } from "../../core/secrets/secretBox";

export const SANDBOX_SIGNING_SECRET_PREFIX = "svc_sigsec_";

export function newSandboxSigningSecret(): string {
  return `${SANDBOX_SIGNING_SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
}

function contextOf(keyId: string): string {
  return `sandbox-signing-secret:${keyId}`;
}

export function sealSandboxSigningSecret(box: SecretBox, keyId: string, secret: string): string {
  return box.seal(secret, contextOf(keyId));
}

export function openSandboxSigningSecret(box: SecretBox, keyId: string, sealed: string): string {
  return box.open(sealed, contextOf(keyId)).toString("utf8");
}
