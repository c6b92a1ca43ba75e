// One attempt's transport: it connects to the checked addresses it is given, never to a fresh DNS answer
// (here the host name does not resolve at all), and answers in bounded time.
import { expect } from "chai";
import { createTransport, postToReceiver } from "../../../services/webhooks/send";
import { Receiver } from "./support";

describe("webhooks: sending one attempt", () => {
  const receiver = new Receiver();
  const transport = createTransport();
  before(async () => receiver.start());
  after(async () => {
    transport.http.destroy();
    await receiver.stop();
  });

  it("connects to the pinned address, sending the URL's host name", async () => {
    const url = new URL(`http://receiver.invalid:${receiver.port}/pinned`);
    const outcome = await postToReceiver(
      transport,
      { url, addresses: [{ address: "127.0.0.1", family: 4 }] },
      '{"a":1}',
      { "content-type": "application/json" },
      5_000,
    );
    expect(outcome).to.deep.equal({ status: 200, error: null });
    const [request] = receiver.at("/pinned");
    expect(request?.headers.host).to.equal(`receiver.invalid:${receiver.port}`);
    expect(request?.rawBody).to.equal('{"a":1}');
  });

  it("reports a refused connection as an attempt without a status", async () => {
    const outcome = await postToReceiver(
      transport,
      { url: new URL("http://receiver.invalid:1/"), addresses: [{ address: "127.0.0.1", family: 4 }] },
      "{}",
      {},
      5_000,
    );
    expect(outcome.status).to.equal(null);
    expect(outcome.error).to.match(/ECONNREFUSED/);
  });
});
