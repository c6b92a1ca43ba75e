// On-chain first, end to end on the local chains: a second API on the same database and chains reads the
// registries through fault proxies, with a clock that can run past the mirror's freshness bound. Real wallets
// reserve on-chain; while the mirror is stale the check and validate answer from the registry (`adapter: "chain"`),
// and with the RPC cut or frozen too they fail closed (`recheck_required`, `adapter: "unavailable"`).
import { expect } from "chai";
import { registryCatalogue } from "../../chains/catalogue";
import { DEFAULT_FRESHNESS_BOUND_SECONDS } from "../../core/status";
import { manifestChains } from "../../services/mirror/chainCatalogue";
import { independentlyVerified, publishedKeys } from "../api/routes/identity/support";
import { bearer, startTestApi, type TestApi } from "../api/support/harness";
import { type FaultProxy, startFaultProxy } from "../support/faultProxy";
import {
  type ChainDriver,
  type ChainWallet,
  type E2e,
  PRODUCTION_HOST,
  startE2e,
  uniquePair,
  waitUntil,
} from "./support";

interface Check {
  status: string;
  decision: string;
  chain: string;
  reason: string;
  adapter: string;
  dataAsOf: string | null;
  authorizedLauncher: string | null;
}

type Decision = Record<string, string | undefined>;

const proxyTo = (url: string) => {
  const { hostname, port } = new URL(url);
  return startFaultProxy({ host: hostname, port: Number(port) });
};

describe("e2e: on-chain first when the mirror is behind", function () {
  this.timeout(120_000);
  let e2e: E2e;
  let api: TestApi;
  let proxies: { evm: FaultProxy; solana: FaultProxy };
  /** How far this API's clock runs ahead of the chains' (past the freshness bound: the mirror is stale). */
  let aheadMs = 0;
  const now = () => e2e.clock.nowMs() + aheadMs;

  before(async () => {
    e2e = await startE2e();
    const { manifest } = e2e.localnet;
    const [evmEntry, solanaEntry] = [manifest.evm[0], manifest.solana[0]];
    if (evmEntry === undefined || solanaEntry === undefined) throw new Error("the localnet has both chains");
    proxies = { evm: await proxyTo(evmEntry.rpcUrl), solana: await proxyTo(solanaEntry.rpcUrl) };
    const throughProxies = {
      ...manifest,
      evm: [{ ...evmEntry, rpcUrl: proxies.evm.urlThrough(evmEntry.rpcUrl) }],
      solana: [{ ...solanaEntry, rpcUrl: proxies.solana.urlThrough(solanaEntry.rpcUrl) }],
    };
    api = await startTestApi({
      db: e2e.db,
      deps: {
        // The same signing keys as the e2e API: they are sealed under its master key.
        masterKey: e2e.api.masterKey,
        registries: registryCatalogue(throughProxies, { now }),
        decisions: { chains: manifestChains(manifest) },
        now,
      },
    });
  });
  after(async () => {
    await api?.close();
    await Promise.all([proxies?.evm.close(), proxies?.solana.close()]);
    await e2e?.stop();
  });
  afterEach(() => {
    aheadMs = 0;
    proxies.evm.restore();
    proxies.solana.restore();
  });

  const check = async (chain: string, pair: { name: string; ticker: string }, launcher: string) => {
    const query = `chain=${chain}&name=${encodeURIComponent(pair.name)}&ticker=${pair.ticker}&launcher=${launcher}`;
    const response = await api.call({ path: `/api/v1/identity/check?${query}`, host: PRODUCTION_HOST });
    expect(response.status, response.text).to.equal(200);
    return response.body as Check;
  };
  const validate = async (chain: string, pair: { name: string; ticker: string }, launcher: string) => {
    const response = await api.call({
      method: "POST",
      path: "/api/v1/launches/validate",
      headers: bearer(e2e.key.secret),
      body: { chain, ...pair, launcher },
    });
    expect(response.status, response.text).to.equal(200);
    const decision = response.body as Decision;
    expect(independentlyVerified(decision, await publishedKeys(api, "production"))).to.equal(true);
    return decision;
  };
  const staleMirror = () => {
    aheadMs = (DEFAULT_FRESHNESS_BOUND_SECONDS + 30) * 1000;
  };

  async function reservedOnChain(driver: ChainDriver, word: string) {
    const holder = await driver.newWallet();
    const copycat: ChainWallet = await driver.newWallet();
    const pair = uniquePair(word);
    await driver.reserveDirectly(holder, pair.name, pair.ticker);
    return { holder, copycat, pair };
  }

  for (const family of ["evm", "solana"] as const) {
    const driver = () => (family === "evm" ? e2e.evm : e2e.solana);

    describe(family, () => {
      it("the mirror stale: the check and validate answer from the registry (block for a copycat, allow for the holder)", async () => {
        const { chain } = driver();
        const { holder, copycat, pair } = await reservedOnChain(driver(), "Marten");
        staleMirror();
        const before = now();
        const blocked = await check(chain, pair, copycat.address);
        expect(blocked).to.include({ decision: "block", status: "blocked", adapter: "chain" });
        expect(blocked.reason).to.equal("active_reservation");
        expect(blocked.authorizedLauncher?.toLowerCase()).to.equal(holder.address.toLowerCase());
        // dataAsOf is the time of the read, on the service's clock: not the stale mirror's.
        const dataAsOf = Date.parse(blocked.dataAsOf ?? "");
        expect(dataAsOf).to.be.within(before, now());
        expect(await check(chain, pair, holder.address)).to.include({
          decision: "allow",
          status: "authorized",
          adapter: "chain",
        });

        expect(await validate(chain, pair, copycat.address)).to.include({
          decision: "block",
          reason: "active_reservation",
        });
        expect(await validate(chain, pair, holder.address)).to.include({
          decision: "allow",
          reason: "authorized_launcher",
        });
        // A pair nobody reserved reads free from the registry as well.
        const free = uniquePair("Vole");
        expect(await check(chain, free, copycat.address)).to.include({ decision: "allow", adapter: "chain" });
      });

      it("the mirror stale and the RPC cut or frozen: recheck_required (adapter unavailable), never an allow", async () => {
        const { chain } = driver();
        const { holder, copycat, pair } = await reservedOnChain(driver(), "Stoat");
        staleMirror();
        // EVM: connections refused; Solana: the RPC accepts and never answers (the read's own bound ends it).
        if (family === "evm") proxies.evm.cut();
        else proxies.solana.freeze();
        for (const launcher of [copycat.address, holder.address]) {
          expect(await check(chain, pair, launcher)).to.include({
            decision: "recheck_required",
            reason: "index_behind",
            adapter: "unavailable",
          });
          expect(await validate(chain, pair, launcher)).to.include({
            decision: "recheck_required",
            reason: "index_behind",
          });
        }
      });
    });
  }

  it("a fresh mirror answers from the index and never reads the chain", async () => {
    const { holder, copycat, pair } = await reservedOnChain(e2e.evm, "Ermine");
    await e2e.chainsFresh();
    proxies.evm.cut(); // a read would fail and turn the answer into recheck_required
    // The indexer mirrors the reservation within a poll; until then the fresh mirror reads it free.
    const blocked = await waitUntil(
      () => check(e2e.evm.chain, pair, copycat.address),
      (answer) => answer.decision === "block",
      "the copycat blocked from the mirror",
    );
    expect(blocked).to.include({ adapter: "index", reason: "active_reservation" });
    expect(await validate(e2e.evm.chain, pair, holder.address)).to.include({ decision: "allow" });
  });
});
