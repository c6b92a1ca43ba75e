// Validate's on-chain decisions over real HTTP: asked for with `onchain`, signed by the environment's key (EIP-712
// by its EVM half, the Solana message by its Ed25519 key) for a launchpad contract bound to the decision's
// launchpad id, and checked here from the published keys alone. Launching with them on real chains:
// test/e2e/onchainGuard.test.ts.
import { createPublicKey, verify } from "node:crypto";
import { PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import { getAddress, recoverTypedDataAddress } from "viem";
import { registryCatalogue } from "../../../../chains/catalogue";
import type { DeploymentManifest } from "../../../../config/manifest";
import {
  type EvmOnchainDecision,
  launchDecisionTypedData,
  type SolanaOnchainDecision,
  solanaLaunchDecisionMessage,
} from "../../../../core/decision/onchain";
import { normalizeIdentity } from "../../../../core/fold";
import { commands } from "../../../../scripts/operator/commands/launchpads";
import { apiOperatorContext, commandLookup } from "../../../scripts/operator/support";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../../support/harness";
import { CHAINS, EVM_OTHER, mirrorReservation, SOL_OTHER, setCheckpoints } from "./support";

const FACTORY = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const OTHER_FACTORY = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const TOKEN = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const LAUNCH_PROGRAM = "G7EAqxqWsG7n4ZVfuXMuHzd65G84pgW7RmRA5w4QRbW9";
const MINT = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const GENESIS = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG";
const NO_SANDBOX_CHAIN = "basetest";

const MANIFEST: DeploymentManifest = {
  evm: [
    {
      chain: "hardhat",
      chainId: 31337,
      rpcUrl: "http://127.0.0.1:9",
      registry: "0x0000000000000000000000000000000000000a01",
      priceFeed: "0x0000000000000000000000000000000000000a02",
      deployBlock: 0,
      sandbox: { registry: "0x0000000000000000000000000000000000000b01" },
    },
    {
      chain: NO_SANDBOX_CHAIN,
      chainId: 84532,
      rpcUrl: "http://127.0.0.1:9",
      registry: "0x0000000000000000000000000000000000000c01",
      priceFeed: "0x0000000000000000000000000000000000000c02",
      deployBlock: 0,
    },
  ],
  solana: [
    {
      chain: "solana",
      rpcUrl: "http://127.0.0.1:9",
      programId: "7YcxjCbKkzjAM5Vz9FDnUeWLUQMxTsb7rACgQUYm6FRt",
      priceAccount: "11111111111111111111111111111112",
      configAccount: "SysvarC1ock11111111111111111111111111111111",
      deploySlot: 0,
      genesisHash: GENESIS,
    },
  ],
};
const TEST_CHAINS = [...CHAINS, { chain: NO_SANDBOX_CHAIN, family: "evm" as const }];
const OPERATOR = ["--actor", "ops-ann", "--reason", "guard integration"];
const launchpadCommand = commandLookup(commands);

interface PublishedKey {
  kid: string;
  status: string;
  publicKeyBase64: string;
  evmAddress?: string;
}

describe("api: validate signs on-chain decisions for bound launchpad contracts", () => {
  let api: TestApi;
  let owner: { secret: string; keyId: string; partnerId: string };
  let stranger: { secret: string; keyId: string; partnerId: string };

  const operator = (name: string, args: string[]) =>
    launchpadCommand(name).run(
      [...args, ...OPERATOR],
      apiOperatorContext(api, () => undefined),
    );
  const validate = (secret: string, body: object) =>
    api.call({ method: "POST", path: "/api/v1/launches/validate", headers: bearer(secret), body });
  const evmRequest = (onchain: object, extra: object = {}) => ({
    chain: "hardhat",
    name: "Guard Coin",
    ticker: "GRD",
    launcher: EVM_OTHER,
    launchpad: "guardpad",
    onchain,
    ...extra,
  });
  const keysOf = async (environment: string): Promise<PublishedKey[]> =>
    ((await api.call({ path: `/api/v1/keys?environment=${environment}` })).body as { keys: PublishedKey[] })
      .keys;
  const activeKey = async (environment: string) => {
    const key = (await keysOf(environment)).find((entry) => entry.status === "active");
    if (key === undefined) throw new Error(`no active ${environment} key`);
    return key;
  };
  const decisionCount = async () =>
    Number((await api.db.pool.query<{ n: string }>("SELECT count(*) AS n FROM decisions")).rows[0]?.n);

  before(async () => {
    api = await startTestApi({
      deps: { decisions: { chains: TEST_CHAINS }, registries: registryCatalogue(MANIFEST) },
    });
    await setCheckpoints(api.db.pool, 0, TEST_CHAINS);
    owner = await issueKey(api, "production", { rateLimitPerMinute: 2000 });
    stranger = await issueKey(api, "production", { rateLimitPerMinute: 2000 });
    await operator("launchpads:bind", ["--launchpad", "guardpad", "--partner", owner.partnerId]);
    for (const [chain, address] of [
      ["hardhat", FACTORY],
      ["solana", LAUNCH_PROGRAM],
    ] as const) {
      await operator("launchpads:bind-contract", [
        "--launchpad",
        "guardpad",
        "--environment",
        "production",
        "--chain",
        chain,
        "--address",
        address,
      ]);
    }
  });
  after(async () => api.close());

  it("EVM: an allow signed as an EIP-712 LaunchDecision by the published EVM address of the active key", async () => {
    const response = await validate(owner.secret, evmRequest({ launchpad: FACTORY, token: TOKEN }));
    expect(response.status, response.text).to.equal(200);
    const answer = response.body as {
      decision: string;
      expiresAt: string;
      keyId: string;
      onchain: EvmOnchainDecision;
    };
    const onchain = answer.onchain;
    const identity = normalizeIdentity("Guard Coin", "GRD");
    expect(answer.decision).to.equal("allow");
    expect(onchain).to.include({
      kind: "evm",
      chainId: 31337,
      registry: getAddress("0x0000000000000000000000000000000000000a01"),
      factory: FACTORY,
      token: TOKEN,
      launcher: EVM_OTHER,
      decision: "allow",
      nameHash: identity.nameHash,
      tickerHash: identity.tickerHash,
      keyId: answer.keyId,
    });
    // Whole seconds, never later than the decision's own expiry.
    expect(onchain.expiresAt).to.equal(Math.floor(Date.parse(answer.expiresAt) / 1000));
    expect(onchain.nonce).to.match(/^0x[0-9a-f]{64}$/);
    const key = await activeKey("production");
    expect(key.evmAddress).to.match(/^0x[0-9a-fA-F]{40}$/);
    expect(onchain.signer).to.equal(key.evmAddress);
    const signer = await recoverTypedDataAddress({
      ...launchDecisionTypedData({ ...onchain, factory: onchain.factory }),
      signature: onchain.signature,
    });
    expect(signer).to.equal(key.evmAddress);
    // 65 bytes with a low s: what the guard's strict recovery accepts.
    expect(onchain.signature).to.have.length(2 + 130);
    const s = BigInt(`0x${onchain.signature.slice(66, 130)}`);
    expect(s <= 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n).to.equal(true);
  });

  it("Solana: the 265-byte message signed by the published Ed25519 key, bound to cluster, programs, launcher and mint", async () => {
    const response = await validate(owner.secret, {
      chain: "solana",
      name: "Guard Coin",
      ticker: "GRD",
      launcher: SOL_OTHER,
      launchpad: "guardpad",
      onchain: { launchpad: LAUNCH_PROGRAM, token: MINT },
    });
    expect(response.status, response.text).to.equal(200);
    const answer = response.body as { expiresAt: string; onchain: SolanaOnchainDecision };
    const onchain = answer.onchain;
    expect(onchain).to.include({
      kind: "solana",
      cluster: GENESIS,
      registryProgram: MANIFEST.solana[0]?.programId,
      launchpadProgram: LAUNCH_PROGRAM,
      launcher: SOL_OTHER,
      mint: MINT,
      decision: "allow",
    });
    const message = Buffer.from(onchain.message, "base64");
    expect(message).to.deep.equal(Buffer.from(solanaLaunchDecisionMessage(onchain)));
    const key = await activeKey("production");
    expect(onchain.signer).to.equal(new PublicKey(Buffer.from(key.publicKeyBase64, "base64")).toBase58());
    const publicKey = createPublicKey({
      key: {
        kty: "OKP",
        crv: "Ed25519",
        x: Buffer.from(key.publicKeyBase64, "base64").toString("base64url"),
      },
      format: "jwk",
    });
    expect(verify(null, message, publicKey, Buffer.from(onchain.signature, "base64"))).to.equal(true);
    // Whole seconds, never later than the decision's own expiry.
    expect(onchain.expiresAt).to.equal(Math.floor(Date.parse(answer.expiresAt) / 1000));
  });

  it("a block is signed as block, never as allow", async () => {
    await mirrorReservation(api.db.pool, {
      chain: "hardhat",
      name: "Held Coin",
      ticker: "HELD",
      launcher: "0x2222222222222222222222222222222222222222",
      expiresInSeconds: 3600,
      nowMs: api.clock.now(),
    });
    const response = await validate(
      owner.secret,
      evmRequest({ launchpad: FACTORY, token: TOKEN }, { name: "Held Coin", ticker: "HELD" }),
    );
    expect(response.status, response.text).to.equal(200);
    const answer = response.body as { decision: string; onchain: EvmOnchainDecision };
    expect(answer.decision).to.equal("block");
    expect(answer.onchain.decision).to.equal("block");
  });

  it("a contract bound to no launchpad id, or to another one, is refused 403 and nothing is recorded", async () => {
    const before = await decisionCount();
    expectEnvelope(
      await validate(owner.secret, evmRequest({ launchpad: OTHER_FACTORY, token: TOKEN })),
      403,
      "launchpad_contract_not_registered",
    );
    await operator("launchpads:bind-contract", [
      "--launchpad",
      "otherpad",
      "--environment",
      "production",
      "--chain",
      "hardhat",
      "--address",
      OTHER_FACTORY,
    ]);
    expectEnvelope(
      await validate(owner.secret, evmRequest({ launchpad: OTHER_FACTORY, token: TOKEN })),
      403,
      "launchpad_contract_of_another_launchpad",
    );
    // Another partner cannot borrow the contract with its own launchpad id either.
    expectEnvelope(
      await validate(
        stranger.secret,
        evmRequest({ launchpad: FACTORY, token: TOKEN }, { launchpad: undefined }),
      ),
      403,
      "launchpad_contract_of_another_launchpad",
    );
    expect(await decisionCount()).to.equal(before);
  });

  it("an address that is not the chain's is a 400 naming the field; a chain without a guard target a 409", async () => {
    const before = await decisionCount();
    const badToken = await validate(owner.secret, evmRequest({ launchpad: FACTORY, token: MINT }));
    expectEnvelope(badToken, 400, "invalid_request");
    expect(JSON.stringify(badToken.body)).to.contain("onchain.token");
    const badProgram = await validate(owner.secret, {
      chain: "solana",
      name: "Guard Coin",
      ticker: "GRD",
      launcher: SOL_OTHER,
      launchpad: "guardpad",
      onchain: { launchpad: FACTORY, token: MINT },
    });
    expectEnvelope(badProgram, 400, "invalid_request");
    expect(JSON.stringify(badProgram.body)).to.contain("onchain.launchpad");
    const sandbox = await issueKey(api, "sandbox", { rateLimitPerMinute: 2000 });
    expectEnvelope(
      await validate(
        sandbox.secret,
        evmRequest({ launchpad: FACTORY, token: TOKEN }, { chain: NO_SANDBOX_CHAIN, launchpad: undefined }),
      ),
      409,
      "onchain_decision_unavailable",
    );
    expect(await decisionCount()).to.equal(before);
  });

  it("sandbox: signed by the sandbox key for the sandbox registry; an unbound contract is claimed by its first user", async () => {
    const first = await issueKey(api, "sandbox", { rateLimitPerMinute: 2000 });
    const second = await issueKey(api, "sandbox", { rateLimitPerMinute: 2000 });
    const sandboxFactory = "0x0000000000000000000000000000000000005a4d";
    const response = await validate(
      first.secret,
      evmRequest({ launchpad: sandboxFactory, token: TOKEN }, { launchpad: undefined }),
    );
    expect(response.status, response.text).to.equal(200);
    const onchain = (response.body as { onchain: EvmOnchainDecision }).onchain;
    expect(onchain.registry).to.equal(getAddress("0x0000000000000000000000000000000000000b01"));
    const sandboxKey = await activeKey("sandbox");
    expect(onchain.signer).to.equal(sandboxKey.evmAddress);
    expect(sandboxKey.evmAddress).to.not.equal((await activeKey("production")).evmAddress);
    expectEnvelope(
      await validate(
        second.secret,
        evmRequest({ launchpad: sandboxFactory, token: TOKEN }, { launchpad: undefined }),
      ),
      403,
      "launchpad_contract_of_another_launchpad",
    );
  });

  it("without `onchain` the answer is today's: no onchain field", async () => {
    const response = await validate(owner.secret, {
      chain: "hardhat",
      name: "Guard Coin",
      ticker: "GRD",
      launcher: EVM_OTHER,
    });
    expect(response.status, response.text).to.equal(200);
    expect(response.body).to.not.have.property("onchain");
  });
});
