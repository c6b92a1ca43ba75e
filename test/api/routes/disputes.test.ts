// Disputes over real HTTP against the local chains: EVM claimants sign with real viem accounts (EIP-4361),
// Solana claimants with real web3.js Keypairs (Ed25519); forged, replayed, expired, unsigned and wrong-family
// proofs are refused with their own codes; operators decide through the CLI commands; an upheld mistaken-block
// dispute turns a signed `block` into a signed `allow`, each verified independently of the service's code.
import { utils } from "@coral-xyz/anchor";
import { signAsync } from "@noble/ed25519";
import { Keypair } from "@solana/web3.js";
import { expect } from "chai";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { registryCatalogue } from "../../../chains/catalogue";
import { type Localnet, startLocalnet } from "../../../scripts/localnet";
import type { OperatorContext } from "../../../scripts/operator/command";
import { commands } from "../../../scripts/operator/commands/disputes";
import { blockIdentity } from "../../../services/identity/guardian";
import { apiOperatorContext, commandLookup } from "../../scripts/operator/support";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../support/harness";
import type { HttpResponse } from "../support/http";
import { independentlyVerified, publishedKeys, setCheckpoints } from "./identity/support";

const PRODUCTION = "api.test";
const SANDBOX = "sandbox.test";
const CONTACT = "claimant-contact@example.org";
const STATEMENT = "Blocked by mistake: this is my own token, launched from this wallet.";
const OPERATOR = { actor: "guardian-7", reason: "copycat complaint" };

interface ChallengeBody {
  nonce: string;
  message: string;
  expiresAt: string;
}

interface DisputeBody {
  disputeId: string;
  identityKey: string;
  chain: string | null;
  reason: string;
  status: string;
  outcome: string | null;
}

type Signer = { address: string; sign(message: string): Promise<string> };

const evmSigner = (account: PrivateKeyAccount): Signer => ({
  address: account.address,
  sign: (message) => account.signMessage({ message }),
});

const solanaSigner = (keypair: Keypair): Signer => ({
  address: keypair.publicKey.toBase58(),
  sign: async (message) =>
    utils.bytes.bs58.encode(
      await signAsync(new TextEncoder().encode(message), keypair.secretKey.slice(0, 32)),
    ),
});

const command = commandLookup(commands);

describe("api: disputes proven by wallet signatures, decided by operators", function () {
  this.timeout(180_000);
  let localnet: Localnet;
  let api: TestApi;
  let operator: OperatorContext;
  let printed: string[];
  let validateKey: { secret: string };

  before(async () => {
    localnet = await startLocalnet({ evmPort: 0, solanaPort: 0, slotMs: 100, manifestPath: null });
    const registries = registryCatalogue(localnet.manifest);
    api = await startTestApi({
      deps: {
        registries,
        decisions: {
          chains: [
            { chain: "hardhat", family: "evm" },
            { chain: "solana", family: "solana" },
          ],
        },
      },
    });
    await setCheckpoints(api.db.pool);
    validateKey = await issueKey(api, "production", { scopes: ["launch:validate"] });
    operator = apiOperatorContext(api, (line) => printed.push(line));
  });
  beforeEach(() => {
    printed = [];
  });
  after(async () => {
    await api?.close();
    await localnet?.stop();
  });
  afterEach(() => api.clock.unpin());

  const post = (path: string, body: unknown, host = PRODUCTION) =>
    api.call({ method: "POST", path: `/api/v1/disputes${path}`, host, body });
  const challenge = async (chain: string, address: string, host = PRODUCTION): Promise<ChallengeBody> => {
    const response = await post("/challenge", { chain, address }, host);
    expect(response.status, response.text).to.equal(201);
    return response.body as ChallengeBody;
  };
  const proofOf = async (signer: Signer, chain: string, host = PRODUCTION) => {
    const issued = await challenge(chain, signer.address, host);
    return { message: issued.message, signature: await signer.sign(issued.message) };
  };
  const filing = (overrides: Record<string, unknown> = {}) => ({
    name: "Mistaken Coin",
    ticker: "MIST",
    chain: "hardhat",
    reason: "mistaken_block",
    statement: STATEMENT,
    evidence: ["https://explorer.example/tx/0x01"],
    contact: CONTACT,
    ...overrides,
  });
  const fileWith = async (signer: Signer, chain: string, overrides: Record<string, unknown> = {}) =>
    post("", filing({ ...overrides, proof: await proofOf(signer, chain) }));
  const filed = (response: HttpResponse): DisputeBody => {
    expect(response.status, response.text).to.equal(201);
    return (response.body as { dispute: DisputeBody }).dispute;
  };
  const disputeCount = async () =>
    Number((await api.db.pool.query("SELECT count(*) AS n FROM disputes")).rows[0].n);
  const validate = async (name: string, ticker: string, launcher: string) => {
    const response = await api.call({
      method: "POST",
      path: "/api/v1/launches/validate",
      host: PRODUCTION,
      headers: bearer(validateKey.secret),
      body: { chain: "hardhat", name, ticker, launcher },
    });
    expect(response.status, response.text).to.equal(200);
    const decision = response.body as Record<string, string | undefined>;
    expect(
      independentlyVerified(decision, await publishedKeys(api, "production")),
      "independently verified",
    ).to.equal(true);
    return decision;
  };
  const timeline = async (key: string) => {
    const response = await api.call({ path: `/api/v1/identity/status?key=${key}`, host: PRODUCTION });
    expect(response.status, response.text).to.equal(200);
    return (response.body as { timeline: { type: string; details: Record<string, unknown> }[] }).timeline;
  };

  it("an upheld mistaken-block dispute clears the guardian block: block becomes allow, in the timeline, announced", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await blockIdentity(
      api.db.pool,
      { environment: "production", identityKey: "MISTAKENCOIN::MIST" },
      OPERATOR,
    );
    expect(await validate("Mistaken Coin", "MIST", account.address)).to.include({
      decision: "block",
      reason: "guardian_block",
    });

    const dispute = filed(await fileWith(evmSigner(account), "hardhat"));
    expect(dispute).to.include({
      identityKey: "MISTAKENCOIN::MIST",
      chain: "hardhat",
      reason: "mistaken_block",
      status: "open",
      outcome: null,
    });

    await command("disputes:review").run(
      ["--id", dispute.disputeId, "--actor", "ops-ann", "--reason", "looking"],
      operator,
    );
    await command("disputes:decide").run(
      ["--id", dispute.disputeId, "--outcome", "upheld", "--actor", "ops-ann", "--reason", "our mistake"],
      operator,
    );
    expect(printed.at(-1)).to.equal(`${dispute.disputeId} is upheld (cleared).`);

    const check = await api.call({
      path: "/api/v1/identity/check?name=Mistaken%20Coin&ticker=MIST&chain=hardhat",
      host: PRODUCTION,
    });
    expect(check.body).to.include({ status: "cleared", decision: "allow" });
    expect(await validate("Mistaken Coin", "MIST", account.address)).to.include({ decision: "allow" });

    const entries = await timeline("MISTAKENCOIN::MIST");
    expect(entries.map((entry) => entry.type)).to.deep.equal([
      "guardian_blocked",
      "dispute_open",
      "dispute_under_review",
      "guardian_cleared",
      "dispute_upheld",
    ]);
    expect(entries.at(-1)?.details).to.deep.equal({
      disputeId: dispute.disputeId,
      reason: "mistaken_block",
      outcome: "cleared",
    });
    expect(JSON.stringify(entries)).to.not.include(CONTACT).and.not.include(account.address.toLowerCase());

    const { rows: events } = await api.db.pool.query(
      `SELECT type, payload FROM domain_events WHERE payload->>'identityKey' = 'MISTAKENCOIN::MIST'
          AND type IN ('identity.protected', 'identity.cleared') ORDER BY id`,
    );
    expect(events.map((event) => event.type)).to.deep.equal(["identity.protected", "identity.cleared"]);
    expect(events[1].payload).to.include({ disputeId: dispute.disputeId, chain: "hardhat" });
    const { rows: audit } = await api.db.pool.query(
      "SELECT actor, action FROM audit_log WHERE subject = 'identity:production:MISTAKENCOIN::MIST' ORDER BY id",
    );
    expect(audit).to.deep.equal([
      { actor: `wallet:hardhat:${account.address.toLowerCase()}`, action: "dispute.open" },
      { actor: "ops-ann", action: "dispute.under_review" },
      { actor: "ops-ann", action: "dispute.upheld" },
    ]);
  });

  it("an upheld copycat dispute from a Solana wallet blocks the copycat identity on the chain named", async () => {
    const keypair = Keypair.generate();
    const dispute = filed(
      await fileWith(solanaSigner(keypair), "solana", {
        name: "Copy Cat",
        ticker: "CCAT",
        chain: "solana",
        reason: "copycat",
      }),
    );
    expect(dispute).to.include({ identityKey: "COPYCAT::CCAT", chain: "solana", status: "open" });
    await command("disputes:decide").run(
      [
        "--id",
        dispute.disputeId,
        "--outcome",
        "upheld",
        "--block",
        "--actor",
        "ops-bo",
        "--reason",
        "copycat",
      ],
      operator,
    );
    const onSolana = await api.call({
      path: "/api/v1/identity/check?name=Copy%20Cat&ticker=CCAT&chain=solana",
      host: PRODUCTION,
    });
    expect(onSolana.body).to.include({ status: "blocked", decision: "block", reason: "guardian_block" });
    const onHardhat = await api.call({
      path: "/api/v1/identity/check?name=Copy%20Cat&ticker=CCAT&chain=hardhat",
      host: PRODUCTION,
    });
    expect(onHardhat.body).to.include({ decision: "allow" });
    const { rows } = await api.db.pool.query(
      "SELECT type, payload FROM domain_events WHERE payload->>'identityKey' = 'COPYCAT::CCAT'",
    );
    expect(rows).to.have.length(1);
    expect(rows[0]).to.deep.include({ type: "identity.protected" });
    expect(rows[0].payload).to.include({ source: "guardian", chain: "solana", disputeId: dispute.disputeId });
  });

  describe("proofs", () => {
    it("refuses a forged signature, a replayed proof, an expired one, a wrong-family one and none at all", async () => {
      const before = await disputeCount();
      const claimant = privateKeyToAccount(generatePrivateKey());
      const forger = privateKeyToAccount(generatePrivateKey());
      const fields = filing({ name: "Proof Coin", ticker: "PRF" });

      const forged = await challenge("hardhat", claimant.address);
      expectEnvelope(
        await post("", {
          ...fields,
          proof: {
            message: forged.message,
            signature: await forger.signMessage({ message: forged.message }),
          },
        }),
        400,
        "wallet_proof_bad_signature",
      );

      const wrongFamily = await challenge("hardhat", claimant.address);
      const solanaSignature = await solanaSigner(Keypair.generate()).sign(wrongFamily.message);
      expectEnvelope(
        await post("", { ...fields, proof: { message: wrongFamily.message, signature: solanaSignature } }),
        400,
        "wallet_family_mismatch",
      );

      const expiring = await challenge("hardhat", claimant.address);
      const late = {
        message: expiring.message,
        signature: await claimant.signMessage({ message: expiring.message }),
      };
      api.clock.set(Date.parse(expiring.expiresAt) + 1_000);
      expectEnvelope(await post("", { ...fields, proof: late }), 400, "wallet_proof_expired");
      api.clock.unpin();

      expectEnvelope(await post("", fields), 400, "invalid_request");
      expect(await disputeCount()).to.equal(before);

      const proof = await proofOf(evmSigner(claimant), "hardhat");
      filed(await post("", { ...fields, proof }));
      expectEnvelope(await post("", { ...fields, name: "Other Coin", proof }), 400, "wallet_proof_replayed");
      expect(await disputeCount()).to.equal(before + 1);
    });

    it("a challenge of the other environment, or a payout-wallet challenge, is unknown to a dispute", async () => {
      const claimant = privateKeyToAccount(generatePrivateKey());
      const sandboxProof = await proofOf(evmSigner(claimant), "hardhat", SANDBOX);
      expectEnvelope(
        await post("", filing({ name: "Env Coin", ticker: "ENV", proof: sandboxProof })),
        400,
        "wallet_proof_unknown",
      );
      const partner = await issueKey(api, "production");
      const payout = await api.call({
        method: "POST",
        path: "/api/v1/partner/payout-wallets/verify/challenge",
        host: PRODUCTION,
        headers: bearer(partner.secret),
        body: { chain: "hardhat", address: claimant.address },
      });
      expect(payout.status, payout.text).to.equal(201);
      const message = (payout.body as ChallengeBody).message;
      expectEnvelope(
        await post(
          "",
          filing({
            name: "Env Coin",
            ticker: "ENV",
            proof: { message, signature: await claimant.signMessage({ message }) },
          }),
        ),
        400,
        "wallet_proof_unknown",
      );
    });
  });

  it("one undecided dispute per wallet and identity; another identity, or another wallet, may file", async () => {
    const signer = evmSigner(privateKeyToAccount(generatePrivateKey()));
    const first = filed(await fileWith(signer, "hardhat", { name: "Twice Coin", ticker: "TWC" }));
    const again = await fileWith(signer, "hardhat", { name: "twice-coin", ticker: "twc", reason: "other" });
    expectEnvelope(again, 409, "dispute_already_open");
    expect(again.body).to.have.nested.property("error.details.disputeId", first.disputeId);
    filed(await fileWith(signer, "hardhat", { name: "Other Coin", ticker: "TWC" }));
    filed(
      await fileWith(evmSigner(privateKeyToAccount(generatePrivateKey())), "hardhat", {
        name: "Twice Coin",
        ticker: "TWC",
      }),
    );
  });

  it("the claimant withdraws with a new proof; another wallet may not; a decided dispute does not move", async () => {
    const claimant = evmSigner(privateKeyToAccount(generatePrivateKey()));
    const dispute = filed(await fileWith(claimant, "hardhat", { name: "Withdraw Coin", ticker: "WDC" }));
    const withdraw = async (signer: Signer) =>
      post(`/${dispute.disputeId}/withdraw`, await proofOf(signer, "hardhat"));
    expectEnvelope(
      await withdraw(evmSigner(privateKeyToAccount(generatePrivateKey()))),
      403,
      "dispute_claimant_mismatch",
    );
    const withdrawn = await withdraw(claimant);
    expect(withdrawn.status, withdrawn.text).to.equal(200);
    expect(withdrawn.body).to.include({ status: "withdrawn", outcome: null });
    expectEnvelope(await withdraw(claimant), 409, "dispute_decided");
    expectEnvelope(
      await post("/dsp_0000/withdraw", await proofOf(claimant, "hardhat")),
      404,
      "dispute_not_found",
    );
    let refused: unknown;
    await command("disputes:decide")
      .run(["--id", dispute.disputeId, "--outcome", "upheld", "--actor", "a", "--reason", "r"], operator)
      .catch((error: unknown) => {
        refused = error;
      });
    expect(String(refused)).to.include("is withdrawn");
  });

  it("upholding a mistaken-block dispute with no guardian block in force changes nothing", async () => {
    const dispute = filed(
      await fileWith(evmSigner(privateKeyToAccount(generatePrivateKey())), "hardhat", {
        name: "Never Blocked",
        ticker: "NVB",
      }),
    );
    let refused: unknown;
    await command("disputes:decide")
      .run(["--id", dispute.disputeId, "--outcome", "upheld", "--actor", "a", "--reason", "r"], operator)
      .catch((error: unknown) => {
        refused = error;
      });
    expect(String(refused)).to.include("no guardian block in force");
    const shown = await api.call({ path: `/api/v1/disputes/${dispute.disputeId}`, host: PRODUCTION });
    expect(shown.body).to.include({ status: "open", outcome: null });
  });

  it("lists newest first with filters and cursors, never the statement, evidence, contact or wallet", async () => {
    const signer = evmSigner(privateKeyToAccount(generatePrivateKey()));
    const ids: string[] = [];
    for (const ticker of ["LSA", "LSB", "LSC"]) {
      ids.push(filed(await fileWith(signer, "hardhat", { name: "List Coin", ticker })).disputeId);
    }
    const first = await api.call({ path: "/api/v1/disputes?status=open&limit=2", host: PRODUCTION });
    expect(first.status, first.text).to.equal(200);
    const page = first.body as { rows: DisputeBody[]; nextCursor: string };
    expect(page.rows.map((row) => row.disputeId)).to.deep.equal([ids[2], ids[1]]);
    const second = await api.call({
      path: `/api/v1/disputes?status=open&limit=2&cursor=${page.nextCursor}`,
      host: PRODUCTION,
    });
    expect((second.body as { rows: DisputeBody[] }).rows[0]?.disputeId).to.equal(ids[0]);
    const byKey = await api.call({ path: "/api/v1/disputes?identityKey=LISTCOIN::LSB", host: PRODUCTION });
    expect((byKey.body as { rows: DisputeBody[] }).rows.map((row) => row.disputeId)).to.deep.equal([ids[1]]);

    const everything = JSON.stringify([first.body, second.body, byKey.body]);
    for (const secret of [
      CONTACT,
      STATEMENT,
      "explorer.example",
      signer.address.toLowerCase(),
      signer.address,
    ]) {
      expect(everything).to.not.include(secret);
    }
    const sandboxList = await api.call({ path: "/api/v1/disputes", host: SANDBOX });
    expect((sandboxList.body as { rows: unknown[] }).rows).to.deep.equal([]);

    await command("disputes:show").run(["--id", ids[1] as string], operator);
    expect(printed.join("\n"))
      .to.include(CONTACT)
      .and.include(STATEMENT)
      .and.include(signer.address.toLowerCase());
  });

  describe("bad input: a 400 envelope and no row", () => {
    const cases: [string, Record<string, unknown>][] = [
      ["an http evidence link", { evidence: ["http://explorer.example/x"] }],
      ["six evidence links", { evidence: Array.from({ length: 6 }, (_, i) => `https://e.example/${i}`) }],
      ["a statement over 2,000 characters", { statement: "x".repeat(2001) }],
      ["an unknown reason", { reason: "revenge" }],
      ["an unknown field", { wallet: "0x00" }],
      ["a name that folds to nothing", { name: "!!!" }],
      ["an unknown chain", { chain: "dogechain" }],
    ];
    for (const [label, override] of cases) {
      it(label, async () => {
        const before = await disputeCount();
        const response = await fileWith(
          evmSigner(privateKeyToAccount(generatePrivateKey())),
          "hardhat",
          override,
        );
        expectEnvelope(response, 400, "invalid_request");
        expect(await disputeCount()).to.equal(before);
      });
    }
    it("a malformed JSON body, and a malformed dispute id", async () => {
      const raw = await api.call({
        method: "POST",
        path: "/api/v1/disputes",
        host: PRODUCTION,
        headers: { "content-type": "application/json" },
        body: '{"name": ',
      });
      expect(raw.status, raw.text).to.equal(400);
      expectEnvelope(
        await api.call({ path: "/api/v1/disputes/%27%3B%20drop", host: PRODUCTION }),
        404,
        "dispute_not_found",
      );
    });
  });

  it("keyless writes are limited per client address", async () => {
    const limited = await startTestApi({
      db: api.db,
      deps: { registries: registryCatalogue(localnet.manifest), publicWriteRateLimitPerMinute: 2 },
    });
    try {
      const ask = () =>
        limited.call({
          method: "POST",
          path: "/api/v1/disputes/challenge",
          host: PRODUCTION,
          body: { chain: "hardhat", address: privateKeyToAccount(generatePrivateKey()).address },
        });
      expect((await ask()).status).to.equal(201);
      expect((await ask()).status).to.equal(201);
      expectEnvelope(await ask(), 429, "rate_limited");
    } finally {
      await limited.close();
    }
  });
});
