// Name and ticker as partners send them: folded, then held to the normalization bounds.
import { ApiError } from "../../core/errors/catalogue";
import { boundsMessage, type NormalizedIdentity, normalizeIdentity } from "../../core/fold";

/** The folded identity; 400 invalid_request when it folds out of bounds (the registries' BadLength). */
export function normalizedOrReject(name: string, ticker: string): NormalizedIdentity {
  const identity = normalizeIdentity(name, ticker);
  if (identity.reason !== "ok") {
    throw new ApiError("invalid_request", boundsMessage(identity.reason), {
      field: identity.reason.startsWith("name") ? "name" : "ticker",
      reason: identity.reason,
      normalizedName: identity.normalizedName,
      normalizedTicker: identity.normalizedTicker,
    });
  }
  return identity;
}
