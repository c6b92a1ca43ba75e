// Sends one request case to the service (validate with one of the partner's keys in turn, or the keyless check),
// judges the answer and keeps it.
import { checkPath, type RequestCase, VALIDATE_PATH, validateBody } from "./cases";
import type { SoakClient } from "./client";
import { judge, type Sample, type Verifier } from "./judge";

export type Ask = (request: RequestCase, probe: boolean) => Promise<Sample>;

/** Every sample is appended to `samples`; the partner's keys take turns (each has its own rate window). */
export function asker(
  client: SoakClient,
  apiKeys: readonly string[],
  verifier: Verifier,
  samples: Sample[],
): Ask {
  let turn = 0;
  return async (request, probe) => {
    const sentAt = Date.now();
    const answer =
      request.route === "validate"
        ? await client.post(VALIDATE_PATH, validateBody(request), {
            authorization: `Bearer ${apiKeys[turn++ % apiKeys.length]}`,
          })
        : await client.get(checkPath(request));
    const sample = judge(request, answer, { sentAt, receivedAt: Date.now() }, verifier, probe);
    samples.push(sample);
    return sample;
  };
}
