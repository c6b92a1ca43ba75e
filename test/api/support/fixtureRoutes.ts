// Test-only routes mounted through the real platform, to exercise scopes and idempotency independently of the
// product routes that use them.
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { RouteModule } from "../../../api/app";
import { errorEnvelope } from "../../../core/errors/catalogue";

export const FIXTURE_PATHS = { whoami: "/v1/test/whoami", idempotent: "/v1/test/idempotent" } as const;

/** Executions of the idempotent fixture, by body value: what idempotency must keep at one. */
export class ExecutionCounter {
  private readonly counts = new Map<string, number>();
  add(value: string): number {
    const next = (this.counts.get(value) ?? 0) + 1;
    this.counts.set(value, next);
    return next;
  }
  of(value: string): number {
    return this.counts.get(value) ?? 0;
  }
}

export function fixtureRoutes(counter: ExecutionCounter): RouteModule {
  return ({ routes, idempotent }) => {
    routes.route(
      {
        method: "get",
        path: FIXTURE_PATHS.whoami,
        summary: "Test fixture: the authenticated partner.",
        tag: "Test fixtures",
        access: { scope: "launch:validate" },
        responses: {
          200: {
            description: "The caller.",
            schema: z.object({
              partner: z.object({
                keyId: z.string(),
                partnerId: z.string(),
                environment: z.string(),
                scopes: z.array(z.string()),
              }),
              hostEnvironment: z.string(),
            }),
          },
        },
      },
      ({ partner, environment }) => ({ status: 200, body: { partner, hostEnvironment: environment } }),
    );
    routes.route(
      {
        method: "post",
        path: FIXTURE_PATHS.idempotent,
        summary: "Test fixture: counts executions, optionally slow or failing.",
        tag: "Test fixtures",
        access: { scope: "reservation:prepare" },
        body: z.strictObject({
          value: z.string(),
          nonce: z.string().optional(),
          delayMs: z.number().int().min(0).max(5000).optional(),
          outcome: z.enum(["ok", "unavailable", "throw"]).optional(),
        }),
        responses: {
          200: { description: "Executed.", schema: z.object({ value: z.string(), execution: z.number() }) },
        },
        errors: [
          "idempotency_key_reused",
          "idempotency_in_progress",
          "internal_error",
          "service_unavailable",
        ],
      },
      ({ body, rawBody, route, headers, partner }) =>
        idempotent({ keyId: partner.keyId, route, headers, body: rawBody }, async () => {
          const execution = counter.add(body.value);
          if (body.delayMs) await sleep(body.delayMs);
          if (body.outcome === "throw") throw new Error("fixture failure");
          if (body.outcome === "unavailable")
            return { status: 503, body: errorEnvelope("service_unavailable") };
          return { status: 200, body: { value: body.value, execution } };
        }),
    );
  };
}
