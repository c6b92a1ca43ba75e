// The registry of chains the service indexes, with live index health.
import { z } from "zod";
import { chainHealthSchema } from "../platform/openapi/schemas";
import type { Platform } from "../platform/platform";

export function registerChainRoutes({ routes, services }: Platform): void {
  routes.route(
    {
      method: "get",
      path: "/v1/chains",
      summary: "Chains the service indexes, each with its index health (`chain` is the name partners send).",
      tag: "Public data",
      access: "public",
      responses: {
        200: {
          description: "Chains with live health.",
          schema: z.object({ chains: z.array(chainHealthSchema) }),
        },
      },
      errors: [],
    },
    async () => {
      return { status: 200, body: { chains: await services.mirror.chainHealth() } };
    },
  );
}
