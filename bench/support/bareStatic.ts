// The ceiling baseline of the check's benches (`api`, `start`): a bare node:http handler answering a fixed JSON
// object of the check's shape, so the load generator and node:http on this machine are all it measures.
import type { RequestListener } from "node:http";

const BODY = JSON.stringify({ status: "available", decision: "allow", available: true });

export const bareStaticHandler: RequestListener = (_request, response) => {
  response.writeHead(200, { "content-type": "application/json" }).end(BODY);
};
