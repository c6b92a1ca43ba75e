// The sandbox context's public face: seeding a confirmed sandbox hold for a partner (never a production one).
import { ApiError } from "../../core/errors/catalogue";
import type { DataPath } from "../dataPath";
import { normalizedOrReject } from "../identity/identityInput";
import type { Caller } from "../identity/validation";
import { createSandboxHold, type SandboxHold, type SandboxHoldRequest } from "./sandbox";

export interface SandboxService {
  /** Seeds a confirmed sandbox hold for the caller; sandbox keys only, 409 identity_held when held for another. */
  hold(caller: Caller, request: SandboxHoldRequest & { name: string; ticker: string }): Promise<SandboxHold>;
}

export function sandboxService(data: DataPath): SandboxService {
  return {
    async hold(caller, request) {
      if (caller.environment !== "sandbox") throw new ApiError("sandbox_only");
      const identity = normalizedOrReject(request.name, request.ticker);
      const context = data.context("sandbox");
      return data.run(() => createSandboxHold(data.pool, context, caller.partnerId, identity, request));
    },
  };
}
