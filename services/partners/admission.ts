// What admits a partner call, apart from HTTP: the key's prefix, the key found and not revoked, the scope.
// The HTTP side (Authorization header, host rule, rate-limit headers, res.locals) is api/platform/partnerAuth.ts.
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import { apiKeyEnvironment } from "./apiKeyFormat";
import type { Authentication } from "./keyAuthentication";
import type { RateState } from "./rateWindow";
import type { PartnerScope } from "./scopes";

/** The authenticated caller. */
export interface PartnerContext {
  keyId: string;
  partnerId: string;
  environment: Environment;
  scopes: readonly PartnerScope[];
}

/** An admitted call: who calls, and where the call stands in its key's rate window. */
export interface KeyedCall {
  partner: PartnerContext;
  rate: RateState;
}

/** The environment the key's prefix names; 401 for anything that is not a key. */
export function keyEnvironmentOf(raw: string): Environment {
  const environment = apiKeyEnvironment(raw);
  if (environment === null) {
    throw new ApiError(
      "unauthorized",
      "This is not a valid API key. Keys start with svc_sbx_ (sandbox) or svc_live_ (production).",
    );
  }
  return environment;
}

/** The call of a found, unrevoked key; 401 unauthorized for an unknown key, 401 key_revoked for a revoked one. */
export function keyedCallOf(found: Authentication | undefined): KeyedCall {
  if (found === undefined)
    throw new ApiError("unauthorized", "This API key is not known; check it was copied whole.");
  if (found.rate === undefined) throw new ApiError("key_revoked");
  const { key } = found;
  return {
    partner: { keyId: key.keyId, partnerId: key.partnerId, environment: key.environment, scopes: key.scopes },
    rate: found.rate,
  };
}

export function assertScope(partner: PartnerContext, scope: PartnerScope): void {
  if (!partner.scopes.includes(scope)) {
    throw new ApiError("scope_missing", `This API key lacks the scope ${scope} that this endpoint needs.`, {
      requiredScope: scope,
      keyScopes: partner.scopes,
    });
  }
}
