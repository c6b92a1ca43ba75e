// GET /v1/openapi: the OpenAPI 3.1.0 document of every registered route.
import { z } from "zod";
import { openApiDocument } from "../platform/openapi/document";
import type { Platform } from "../platform/platform";
import { DELIVERED_EVENTS } from "./webhookEventSchemas";

export function registerOpenApiRoute({ routes }: Platform): void {
  routes.route(
    {
      method: "get",
      path: "/v1/openapi",
      summary: "This API's machine-readable specification (OpenAPI 3.1.0).",
      tag: "Public data",
      access: "public",
      responses: {
        200: {
          description:
            "The OpenAPI document; its `info.version` is the responseVersion (a root field would break OpenAPI).",
          schema: z.looseObject({ openapi: z.literal("3.1.0") }),
          versioned: false,
        },
      },
    },
    // Sent as-is (`versioned: false`): an OpenAPI document may not carry an extra root field such as responseVersion.
    () => ({ status: 200, body: openApiDocument(routes.specs(), DELIVERED_EVENTS) }),
  );
}
