// The example launchpad (examples/launchpad) end to end against a running service: a self-serve sandbox key,
// a guarded launch that is reported, a refused one, and the launch.reported webhook delivered by the
// service's dispatcher and verified by the launchpad over the raw body.
import { expect } from "chai";
import { createSecretBox } from "../../core/secrets/secretBox";
import { runDemo } from "../../examples/launchpad/demo";
import { signTestWebhook } from "../../sdk/src";
import { webhookDispatcher } from "../../services/webhooks";
import { CHAINS, setCheckpoints } from "../api/routes/decisions/support";
import { startTestApi, type TestApi } from "../api/support/harness";
import { tableLookup } from "../services/webhooks/support";

describe("sdk: the example launchpad's flow", function () {
  this.timeout(60_000);
  const lookup = tableLookup({});
  let api: TestApi;
  before(async () => {
    api = await startTestApi({
      deps: { decisions: { chains: CHAINS }, webhooks: { allowLocalReceivers: true, lookup } },
    });
    await setCheckpoints(api.db.pool);
  });
  after(async () => api?.close());

  it("guards, launches and reports, refuses a held pair, and receives launch.reported verified", async () => {
    // The worker's part: the dispatcher sends what the launchpad's calls caused, as in `npm start`.
    const dispatcher = webhookDispatcher({
      pool: api.db.pool,
      box: createSecretBox(api.masterKey),
      now: Date.now,
      receivers: { allowLocalReceivers: true, lookup },
      log: () => undefined,
    });
    let running = true;
    const dispatching = (async () => {
      while (running) {
        await dispatcher.pass();
        await dispatcher.settle();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    try {
      const result = await runDemo({ serviceUrl: api.url, webhookTimeoutMs: 20_000 });
      try {
        expect(result.allowed).to.include({ launched: true });
        expect(result.refused).to.deep.equal({ launched: false, reason: "blocked" });
        expect(result.reported.type).to.equal("launch.reported");
        expect(JSON.stringify(result.reported.data)).to.include("::EXMPL");
        // A forged delivery (the same body, signed with another secret) is refused with 400 and not kept.
        const forged = await signTestWebhook({ ...result.reported, id: "dlv_forged" }, "whsec_forged");
        const answer = await fetch(`${result.launchpad.url}/webhooks`, {
          method: "POST",
          headers: forged.headers,
          body: forged.body,
        });
        expect(answer.status).to.equal(400);
        expect(result.launchpad.events.map((event) => event.id)).to.not.include("dlv_forged");
      } finally {
        await result.launchpad.close();
      }
    } finally {
      running = false;
      await dispatching;
    }
  });
});
