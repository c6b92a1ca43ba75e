// sendJson writes its header fields as a flat list: a route's header must replace the security header of the
// same name (one field, the route's value), whether or not the response already holds headers of its own.
import { once } from "node:events";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { sendJson } from "../../../api/platform/jsonResponse";
import { SECURITY_HEADERS } from "../../../api/platform/securityHeaders";

/** The raw header fields and body of one answer written by `answer`. */
async function answerOf(answer: (res: ServerResponse) => void) {
  const server = createServer((_req, res) => answer(res));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    const { port } = server.address() as AddressInfo;
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      request({ host: "127.0.0.1", port, path: "/" }, resolve).on("error", reject).end(),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    const fields = new Map<string, string[]>();
    for (let index = 0; index < response.rawHeaders.length; index += 2) {
      const name = (response.rawHeaders[index] as string).toLowerCase();
      fields.set(name, [...(fields.get(name) ?? []), response.rawHeaders[index + 1] as string]);
    }
    return { status: response.statusCode, fields, body: Buffer.concat(chunks).toString("utf8") };
  } finally {
    server.close();
  }
}

describe("api: sendJson", () => {
  const corsRead = { "Cross-Origin-Resource-Policy": "cross-origin", "RateLimit-Remaining": "9" };

  for (const [label, before] of [
    ["on a bare response", (_res: ServerResponse) => {}],
    ["after a header set earlier", (res: ServerResponse) => res.setHeader("X-Request-Id", "req_1")],
  ] as const) {
    it(`${label}: every security header once, a route's header replacing its namesake, the body's length`, async () => {
      const { status, fields, body } = await answerOf((res) => {
        before(res);
        sendJson(res, 201, { ok: true }, corsRead);
      });
      expect(status).to.equal(201);
      expect(fields.get("cross-origin-resource-policy")).to.deep.equal(["cross-origin"]);
      expect(fields.get("ratelimit-remaining")).to.deep.equal(["9"]);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        if (name in corsRead) continue;
        expect(fields.get(name.toLowerCase()), name).to.deep.equal([value]);
      }
      expect(fields.get("content-type")).to.deep.equal(["application/json; charset=utf-8"]);
      expect(fields.get("content-length")).to.deep.equal([String(Buffer.byteLength(body))]);
      expect(JSON.parse(body)).to.include({ ok: true });
    });
  }
});
