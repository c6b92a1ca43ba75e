// The receiver rule at registration, over HTTP: every form that could reach a private, loopback, link-local,
// metadata or otherwise non-public address is refused with a 400 naming the rule; public HTTPS receivers are
// accepted; the local exception admits only localhost receivers, and only when configured.
import { expect } from "chai";
import { tableLookup } from "../../services/webhooks/support";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../support/harness";

const DNS = tableLookup({
  "hooks.example.com": ["93.184.216.34"],
  "dual.example.com": ["93.184.216.34", "2606:4700::1111"],
  localhost: ["127.0.0.1", "::1"],
  "rebind.example.com": ["10.0.0.5"],
  "mixed.example.com": ["93.184.216.34", "192.168.0.1"],
  "metadata.example.com": ["169.254.169.254"],
  "v6private.example.com": ["fd12:3456::1"],
  "127.0.0.1.nip.io": ["127.0.0.1"],
  "mapped.example.com": ["::ffff:10.0.0.1"],
});

/** [url, rule] pairs: each is refused at registration on a hosted service. */
const REFUSED: ReadonlyArray<readonly [string, string]> = [
  ["not a url", "invalid_url"],
  ["//hooks.example.com/", "invalid_url"],
  ["http://hooks.example.com/", "https_required"],
  ["ftp://hooks.example.com/", "https_required"],
  ["http://localhost:8080/", "https_required"],
  ["http://127.0.0.1:8080/", "https_required"],
  ["https://user:pass@hooks.example.com/", "credentials_in_url"],
  ["https://user@hooks.example.com/", "credentials_in_url"],
  ["https://2130706433/", "non_canonical_ipv4"],
  ["https://0x7f000001/", "non_canonical_ipv4"],
  ["https://0177.0.0.1/", "non_canonical_ipv4"],
  ["https://0x7f.0.0.1/", "non_canonical_ipv4"],
  ["https://127.1/", "non_canonical_ipv4"],
  ["https://134744072/", "non_canonical_ipv4"],
  ["https://127%2e0.0.1/", "non_canonical_ipv4"],
  ["https://127.0.0.1/", "loopback"],
  ["https://127.255.0.9:8443/hook", "loopback"],
  ["https://localhost/", "loopback"],
  ["https://[::1]/", "loopback"],
  ["https:\\\\127.0.0.1\\hook", "loopback"],
  ["https://127.0.0.1.nip.io/", "loopback"],
  ["https://10.0.0.1/", "private"],
  ["https://172.16.5.4/", "private"],
  ["https://192.168.1.1/", "private"],
  ["https://[fc00::1]/", "private"],
  ["https://[fd12:3456::1]/", "private"],
  ["https://169.254.169.254/latest/meta-data/", "cloud_metadata"],
  ["https://[fd00:ec2::254]/", "cloud_metadata"],
  ["https://100.100.100.200/", "cloud_metadata"],
  ["https://metadata.example.com/", "cloud_metadata"],
  ["https://169.254.10.10/", "link_local"],
  ["https://[fe80::1]/", "link_local"],
  ["https://100.64.0.1/", "cgnat"],
  ["https://100.127.255.254/", "cgnat"],
  ["https://224.0.0.1/", "multicast"],
  ["https://[ff02::1]/", "multicast"],
  ["https://0.0.0.0/", "unspecified"],
  ["https://0.1.2.3/", "unspecified"],
  ["https://[::]/", "unspecified"],
  ["https://255.255.255.255/", "broadcast"],
  ["https://192.0.2.1/", "reserved"],
  ["https://198.18.0.1/", "reserved"],
  ["https://240.0.0.1/", "reserved"],
  ["https://[2001:db8::1]/", "reserved"],
  ["https://[::ffff:127.0.0.1]/", "ipv4_mapped"],
  ["https://[::ffff:169.254.169.254]/", "ipv4_mapped"],
  ["https://[::ffff:a00:1]/", "ipv4_mapped"],
  ["https://mapped.example.com/", "ipv4_mapped"],
  ["https://[::127.0.0.1]/", "ipv4_compatible"],
  ["https://[::a00:1]/", "ipv4_compatible"],
  ["https://[2002:7f00:1::]/", "ipv4_embedded"],
  ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "ipv4_embedded"],
  ["https://[64:ff9b::7f00:1]/", "ipv4_embedded"],
  ["https://rebind.example.com/", "private"],
  ["https://mixed.example.com/", "private"],
  ["https://v6private.example.com/", "private"],
  ["https://nowhere.example.com/", "unresolvable"],
];

describe("api: webhook receiver rule at registration", () => {
  let hosted: TestApi;
  let local: TestApi;
  let hostedKey: { secret: string };
  let localKey: { secret: string };

  const register = (api: TestApi, key: { secret: string }, url: string) =>
    api.call({ method: "POST", path: "/api/v1/webhooks", headers: bearer(key.secret), body: { url } });

  before(async () => {
    hosted = await startTestApi({ deps: { webhooks: { allowLocalReceivers: false, lookup: DNS } } });
    local = await startTestApi({
      db: hosted.db,
      deps: { webhooks: { allowLocalReceivers: true, lookup: DNS } },
    });
    hostedKey = await issueKey(hosted, "production");
    localKey = await issueKey(local, "sandbox");
  });
  after(async () => {
    await local.close();
    await hosted.close();
  });

  it(`refuses ${REFUSED.length} address forms, naming the rule`, async () => {
    expect(REFUSED.length).to.be.at.least(30);
    const wrong: string[] = [];
    for (const [url, rule] of REFUSED) {
      const response = await register(hosted, hostedKey, url);
      expectEnvelope(response, 400, "invalid_request");
      const error = (response.body as { error: { message: string; details: { rule?: string } } }).error;
      if (error.details.rule !== rule || !error.message.includes(rule)) {
        wrong.push(`${url}: expected ${rule}, got ${error.details.rule} (${error.message})`);
      }
    }
    expect(wrong).to.deep.equal([]);
    const { rows } = await hosted.db.pool.query("SELECT count(*)::int AS n FROM webhook_endpoints");
    expect(rows[0].n).to.equal(0);
  });

  it("accepts public HTTPS receivers by name, IPv4 and IPv6 literal", async () => {
    for (const url of [
      "https://hooks.example.com/service?x=1",
      "https://dual.example.com:8443/",
      "https://8.8.8.8/hook",
      "https://[2606:4700::1111]/hook",
    ]) {
      const response = await register(hosted, hostedKey, url);
      expect(response.status, `${url}: ${response.text}`).to.equal(201);
    }
  });

  it("on a locally run service accepts http(s) localhost receivers, and nothing else private", async () => {
    for (const url of [
      "http://localhost:3000/hooks",
      "http://127.0.0.1:9/",
      "http://[::1]:9/",
      "https://localhost/",
    ]) {
      const response = await register(local, localKey, url);
      expect(response.status, `${url}: ${response.text}`).to.equal(201);
    }
    for (const [url, rule] of [
      ["http://127.0.0.2/", "https_required"],
      ["http://10.0.0.1/", "https_required"],
      ["https://10.0.0.1/", "private"],
      ["https://169.254.169.254/", "cloud_metadata"],
      ["https://127.0.0.1.nip.io/", "loopback"],
      ["http://user:pw@localhost/", "credentials_in_url"],
    ] as const) {
      const response = await register(local, localKey, url);
      expect(response.body, url).to.have.nested.property("error.details.rule", rule);
    }
  });
});
