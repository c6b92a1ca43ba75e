// On the local chains with real wallets: a lock rests on a reported launch and on the chain's
// reservations as the indexers mirror them. A creator reserves on-chain (a viem account on Hardhat, a web3.js
// Keypair on the Solana RPC, paying the registry); a keeper's word can neither lock the pair before that
// (the unreserved-PEPE attack) nor over it for a copycat; the creator's own bond locks it for the creator.
// Without that rule the attack locks the pair for nobody and the paying creator is answered `block`.
import { expect } from "chai";
import { expectEnvelope } from "../api/support/harness";
import {
  type ChainDriver,
  type E2e,
  keeperPost,
  launchpadKeeper,
  partnerApi,
  startE2e,
  uniquePair,
  waitUntil,
} from "./support";

const OPERATOR = { actor: "e2e", reason: "lock facts" };
const DAY_MS = 86_400_000;

describe("e2e: locks rest on facts, on the local chains with real wallets", function () {
  this.timeout(120_000);
  let e2e: E2e;
  let partner: ReturnType<typeof partnerApi>;
  let keeper: string;

  before(async () => {
    e2e = await startE2e();
    partner = partnerApi(e2e);
    keeper = await launchpadKeeper(e2e, "e2e-pad", "e2e keeper", OPERATOR);
  });
  after(async () => e2e?.stop());

  const post = (path: string, body: object) => keeperPost(e2e, keeper, path, body);
  const bonded = (chain: string, pair: { name: string; ticker: string }, extra: object = {}) =>
    post("/events/bonded", { chain, launchpad: "e2e-pad", ...pair, ...extra });
  const reportLaunch = async (chain: string, pair: { name: string; ticker: string }, launcher: string) => {
    const response = await post("/launches/report", {
      chain,
      launchpad: "e2e-pad",
      ...pair,
      launcher,
      tokenOrMint: launcher,
    });
    expect(response.status, response.text).to.equal(200);
  };
  /** The creator pays the registry directly; resolves once the indexer mirrored the reservation. */
  const reserveOnChain = async (driver: ChainDriver, pair: { name: string; ticker: string }) => {
    const creator = await driver.newWallet();
    await driver.reserveDirectly(creator, pair.name, pair.ticker);
    await waitUntil(
      () => partner.check(driver.chain, pair.name, pair.ticker),
      (answer) => answer.status === "reserved",
      `${pair.name} reserved on ${driver.chain}`,
    );
    return creator;
  };
  const decisionFor = async (chain: string, pair: { name: string; ticker: string }, launcher: string) => {
    const response = await partner.validate({ chain, ...pair, launcher });
    expect(response.status, response.text).to.equal(200);
    return (response.body as { decision: string; reason: string }).decision;
  };

  for (const family of ["evm", "solana"] as const) {
    const driver = () => (family === "evm" ? e2e.evm : e2e.solana);

    describe(family === "evm" ? "EVM (Hardhat, viem account)" : "Solana (local RPC, web3.js Keypair)", () => {
      it("the unreserved-PEPE attack is refused; the creator who then reserves and pays is allowed", async () => {
        const { chain } = driver();
        const pair = uniquePair("Pepe");
        expectEnvelope(await bonded(chain, pair, { wasReserved: true }), 409, "launch_not_reported");
        const creator = await reserveOnChain(driver(), pair);
        const copycat = await driver().newWallet();
        expect(await decisionFor(chain, pair, creator.address)).to.equal("allow");
        expect(await decisionFor(chain, pair, copycat.address)).to.equal("block");
      });

      it("a copycat's bond over the creator's live reservation is refused and audited; the creator's bond locks for the creator", async () => {
        const { chain } = driver();
        const pair = uniquePair("Frog");
        const creator = await reserveOnChain(driver(), pair);
        const copycat = await driver().newWallet();

        await reportLaunch(chain, pair, copycat.address);
        const refused = await bonded(chain, pair, { wasReserved: false });
        expectEnvelope(refused, 409, "identity_held");
        expect(refused.body).to.nested.include({ "error.details.reason": "reserved_by_another_wallet" });
        const audit = await e2e.db.pool.query<{ reason: string }>(
          "SELECT reason FROM audit_log WHERE action = 'lock.refused' AND details->>'chain' = $1 AND subject LIKE $2",
          [chain, `identity:production:%`],
        );
        expect(audit.rows.map((row) => row.reason)).to.include("identity_held");

        await reportLaunch(chain, pair, creator.address);
        const locked = await bonded(chain, pair);
        expect(locked.status, locked.text).to.equal(200);
        const answer = locked.body as { authorizedLauncher: string; wasReserved: boolean; newExpiry: string };
        expect(answer.authorizedLauncher.toLowerCase()).to.equal(creator.address.toLowerCase());
        expect(answer.wasReserved).to.equal(true);
        expect(Date.parse(answer.newExpiry) - e2e.clock.nowMs()).to.be.within(59.9 * DAY_MS, 60 * DAY_MS);
        expect(await decisionFor(chain, pair, creator.address)).to.equal("allow");
        expect(await decisionFor(chain, pair, copycat.address)).to.equal("block");
      });
    });
  }
});
