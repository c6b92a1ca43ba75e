// The key cache's rules, with a scripted fetch: fresh keys are reused, an unknown kid causes a fetch, and a
// caller that joined a fetch started before the rotation it saw fetches again rather than refuse.
import { expect } from "chai";
import { KeyCache } from "../../sdk/src/keys";

const entry = (kid: string) => ({
  kid,
  environment: "production",
  status: "active",
  active: true,
  publicKeyBase64: "AAAA",
});

function scriptedCache(answers: { kids: string[]; delayMs: number }[]) {
  const cache = new KeyCache({
    apiBase: "http://keys.test/api",
    environment: "production",
    cacheMs: 60_000,
    now: Date.now,
    fetch: async () => {
      const answer = answers.shift() ?? { kids: [], delayMs: 0 };
      await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      const keys = [...answer.kids.map(entry), { ...entry("sbx-1"), environment: "sandbox" }];
      return new Response(JSON.stringify({ keys }), { status: 200 });
    },
  });
  return cache;
}

const kids = (keys: { kid: string }[] | null) => keys?.map((key) => key.kid);

describe("sdk: the key cache", () => {
  const deadline = () => Date.now() + 1000;

  it("reuses fresh keys, keeps only the configured environment's, and fetches for an unknown kid", async () => {
    const cache = scriptedCache([
      { kids: ["k1"], delayMs: 0 },
      { kids: ["k2", "k1"], delayMs: 0 },
    ]);
    expect(kids(await cache.current(deadline()))).to.deep.equal(["k1"]);
    expect(kids(await cache.current(deadline()))).to.deep.equal(["k1"]);
    expect(cache.fetches).to.equal(1);
    expect(kids(await cache.refresh(deadline(), "k2"))).to.deep.equal(["k2", "k1"]);
    expect(kids(await cache.refresh(deadline(), "k2")), "already cached: no fetch").to.deep.equal([
      "k2",
      "k1",
    ]);
    expect(cache.fetches).to.equal(2);
  });

  it("a caller that joined a fetch started before the rotation fetches once more", async () => {
    const cache = scriptedCache([
      { kids: ["k1"], delayMs: 100 },
      { kids: ["k2", "k1"], delayMs: 0 },
    ]);
    const early = cache.current(deadline()); // started before k2 existed
    const joined = cache.refresh(deadline(), "k2");
    expect(kids(await early)).to.deep.equal(["k1"]);
    expect(kids(await joined)).to.deep.equal(["k2", "k1"]);
    expect(cache.fetches).to.equal(2);
  });
});
