// core's EVM launch decision against the real verifier: the example GuardedLaunchpad (contracts/guard/IdentityGuard.sol)
// deployed on Hardhat's in-process network. Its digest is the contract's, and a launch signed over its typed data
// with viem's signTypedData is the launch the guard lets through.
import { expect } from "chai";
import { type Address, getAddress, type Hex, keccak256, parseEventLogs, slice, toBytes, toHex } from "viem";
import { guardedLaunchpadAbi } from "../../../contracts/test/abi/guardedLaunchpad";
import {
  type EvmLaunchDecisionFields,
  LAUNCH_DECISION_ENCODED_TYPE,
  launchDecisionDigest,
  launchDecisionDomain,
  launchDecisionTypedData,
} from "../../../core/decision/onchain";
import { addressOf, latestTimestamp } from "../../contracts/fixture";
import {
  DECISION_KEY,
  expectGuardRevert,
  type GuardFixture,
  guardFixture,
  pairHashes,
  RESERVED,
  saltOf,
  tokenAt,
} from "../../contracts/guardFixture";

const derived = (label: string): Hex => keccak256(toHex(label));
const addressFrom = (label: string): Address => getAddress(slice(derived(label), 12));

describe("core/decision/onchain: the EVM decision against the deployed IdentityGuard (Hardhat)", () => {
  let fixture: GuardFixture;

  beforeEach(async () => {
    fixture = await guardFixture();
  });

  /** The launchpad's own digest of typed data's message. */
  async function onChainDigest(fields: EvmLaunchDecisionFields): Promise<Hex> {
    const { message } = launchDecisionTypedData(fields);
    return fixture.launchpad.read.launchDecisionDigest([
      message.nameHash,
      message.tickerHash,
      message.launcher,
      message.token,
      message.decision,
      message.expiresAt,
      message.nonce,
    ]);
  }

  it("launchDecisionDigest is the launchpad's launchDecisionDigest(...), for allow and block, every input form and the uint64 edges", async () => {
    const base: EvmLaunchDecisionFields = {
      chainId: fixture.chainId,
      factory: fixture.launchpad.address,
      ...pairHashes(RESERVED),
      launcher: addressOf(fixture.holder),
      token: addressFrom("token"),
      decision: "allow",
      expiresAt: BigInt(await latestTimestamp()) + 600n,
      nonce: derived("nonce"),
    };
    const cases: EvmLaunchDecisionFields[] = [
      base,
      { ...base, decision: "block" },
      { ...base, expiresAt: 0n },
      { ...base, expiresAt: 2n ** 64n - 1n },
      { ...base, expiresAt: new Date("2031-05-06T07:08:09.999Z") },
      { ...base, expiresAt: 1_767_225_600 },
      {
        ...base,
        chainId: BigInt(fixture.chainId),
        factory: fixture.launchpad.address.toLowerCase(),
        nameHash: toBytes(derived("name")),
        tickerHash: derived("ticker").toUpperCase().replace("0X", "0x") as Hex,
        launcher: addressFrom("launcher").toLowerCase(),
        token: addressFrom("other token").toLowerCase(),
        nonce: toBytes(derived("other nonce")),
      },
    ];
    for (const [index, fields] of cases.entries())
      expect(launchDecisionDigest(fields), `case ${index}`).to.equal(await onChainDigest(fields));

    expect(await fixture.launchpad.read.LAUNCH_DECISION_TYPEHASH()).to.equal(
      keccak256(toHex(LAUNCH_DECISION_ENCODED_TYPE)),
    );
    const { domain } = await fixture.publicClient.getEip712Domain({ address: fixture.launchpad.address });
    const { salt: _unused, ...published } = domain;
    expect(launchDecisionDomain(fixture.chainId, fixture.launchpad.address)).to.deep.equal(published);
  });

  it("a launch signed over launchDecisionTypedData with viem's signTypedData launches, and the guard consumes that digest", async () => {
    const launcher = addressOf(fixture.holder);
    const salt = saltOf("core typed data");
    const token = await fixture.launchpad.read.predictToken([RESERVED.name, RESERVED.ticker, launcher, salt]);
    const fields: EvmLaunchDecisionFields = {
      chainId: fixture.chainId,
      factory: fixture.launchpad.address,
      ...pairHashes(RESERVED),
      launcher,
      token,
      decision: "allow",
      expiresAt: new Date((await latestTimestamp()) * 1000 + 600_500),
      nonce: toBytes(derived("core typed data nonce")),
    };
    const typedData = launchDecisionTypedData(fields);
    const signature = await DECISION_KEY.signTypedData(typedData);

    const hash = await fixture
      .launchpadAs(fixture.holder)
      .write.launch([
        RESERVED.name,
        RESERVED.ticker,
        salt,
        typedData.message.expiresAt,
        typedData.message.nonce,
        signature,
      ]);
    const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).to.equal("success");
    const digest = launchDecisionDigest(fields);
    const [consumed] = parseEventLogs({
      abi: guardedLaunchpadAbi,
      logs: receipt.logs,
      eventName: "LaunchDecisionConsumed",
    });
    expect(consumed?.args).to.deep.equal({
      digest,
      signer: DECISION_KEY.address,
      launcher,
      nonce: typedData.message.nonce,
    });
    const [launched] = parseEventLogs({
      abi: guardedLaunchpadAbi,
      logs: receipt.logs,
      eventName: "TokenLaunched",
    });
    expect(launched?.args.token).to.equal(token);
    expect(await fixture.launchpad.read.decisionUsed([digest])).to.equal(true);
    expect(await tokenAt(fixture, token).read.balanceOf([launcher])).to.equal(
      await fixture.launchpad.read.TOKEN_SUPPLY(),
    );
  });

  it("the guard refuses core's typed data for another chain or factory (UntrustedDecisionSigner) and a block (DecisionNotAllow)", async () => {
    const launcher = addressOf(fixture.holder);
    const salt = saltOf("core refusals");
    const token = await fixture.launchpad.read.predictToken([RESERVED.name, RESERVED.ticker, launcher, salt]);
    const fields: EvmLaunchDecisionFields = {
      chainId: fixture.chainId,
      factory: fixture.launchpad.address,
      ...pairHashes(RESERVED),
      launcher,
      token,
      decision: "allow",
      expiresAt: BigInt(await latestTimestamp()) + 600n,
      nonce: derived("core refusals nonce"),
    };
    const launchSignedOver = async (signed: EvmLaunchDecisionFields) =>
      fixture
        .launchpadAs(fixture.holder)
        .write.launch([
          RESERVED.name,
          RESERVED.ticker,
          salt,
          fields.expiresAt as bigint,
          fields.nonce as Hex,
          await DECISION_KEY.signTypedData(launchDecisionTypedData(signed)),
        ]);
    await expectGuardRevert(launchSignedOver({ ...fields, chainId: 1 }), "UntrustedDecisionSigner");
    await expectGuardRevert(
      launchSignedOver({ ...fields, factory: addressFrom("another factory") }),
      "UntrustedDecisionSigner",
    );
    await expectGuardRevert(launchSignedOver({ ...fields, decision: "block" }), "DecisionNotAllow", []);
    await launchSignedOver(fields);
  });
});
