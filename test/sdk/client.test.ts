// The typed client over real HTTP: answers typed by the OpenAPI document, errors typed by the catalogue,
// and the committed generated types equal to what the generator makes of the running service's document.
import { readFileSync } from "node:fs";
import { expect } from "chai";
import { GENERATED_CLIENT, generatedClient } from "../../scripts/sdk/generate-client";
import { createServiceClient, ServiceApiError, ServiceNetworkError } from "../../sdk/src";
import { setLaunchReporting } from "../../services/identity/keeperCredentials";
import { EVM_OTHER } from "../api/routes/identity/support";
import { LAUNCHPAD, OPERATOR, type SdkFixture, startSdkFixture } from "./support";

describe("sdk: the typed client", function () {
  this.timeout(30_000);
  let fx: SdkFixture;
  before(async () => {
    fx = await startSdkFixture();
  });
  after(async () => fx?.api.close());

  it("the committed sdk/src/generated/openapi.ts is what the generator makes of GET /v1/openapi", async () => {
    const document = await (await fetch(`${fx.api.url}/api/v1/openapi`)).json();
    expect(await generatedClient(document)).to.equal(readFileSync(GENERATED_CLIENT, "utf8"));
  });

  it("public and partner routes, typed; /api is added to the base URL once", async () => {
    // The service makes its signing keys on the first decision.
    expect(
      (await fx.guard().check({ chain: "hardhat", name: "Key Maker", ticker: "KEYM", launcher: EVM_OTHER }))
        .launch,
    ).to.equal(true);
    for (const baseUrl of [fx.api.url, `${fx.api.url}/`, `${fx.api.url}/api`]) {
      const client = createServiceClient({ baseUrl });
      const { keys } = await client.get("/v1/keys", { query: { environment: "production" } });
      const kids: string[] = keys.map((key) => key.kid);
      expect(kids.length).to.be.greaterThan(0);
    }
    const client = createServiceClient({ baseUrl: fx.api.url, apiKey: fx.live.secret });
    await setLaunchReporting(fx.api.db.pool, fx.live.keyId, true, OPERATOR);
    const report = await client.post("/v1/launches/report", {
      body: {
        chain: "hardhat",
        launchpad: LAUNCHPAD,
        name: "Client Coin",
        ticker: "CLNT",
        launcher: EVM_OTHER,
        tokenOrMint: "0x00000000000000000000000000000000000000c1",
      },
    });
    const identityKey: string = report.identityKey;
    expect(identityKey).to.equal("CLIENTCOIN::CLNT");
  });

  it("a non-2xx answer throws ServiceApiError with the catalogue code; nothing listening, ServiceNetworkError", async () => {
    const client = createServiceClient({ baseUrl: fx.api.url, apiKey: fx.live.secret });
    const error = await client
      .post("/v1/launches/validate", { body: { chain: "hardhat", name: "A", ticker: "AB" } as never })
      .catch((thrown: unknown) => thrown);
    expect(error).to.be.instanceOf(ServiceApiError);
    expect(error).to.include({ status: 400, code: "invalid_request" });
    const keyless = await createServiceClient({ baseUrl: fx.api.url })
      .get("/v1/webhooks")
      .catch((thrown: unknown) => thrown);
    expect(keyless).to.include({ status: 401, code: "unauthorized" });
    const down = await createServiceClient({ baseUrl: "http://127.0.0.1:1", timeoutMs: 300 })
      .get("/v1/keys")
      .catch((thrown: unknown) => thrown);
    expect(down).to.be.instanceOf(ServiceNetworkError);
  });
});
