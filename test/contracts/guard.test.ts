// The on-chain identity guard (contracts/guard/IdentityGuard.sol) through the example GuardedLaunchpad: the
// signed path (the service's EIP-712 allow plus the registry) and the registry-only path.
import { expect } from "chai";
import {
  encodeAbiParameters,
  getAddress,
  type Hex,
  keccak256,
  parseEventLogs,
  toHex,
  zeroAddress,
  zeroHash,
} from "viem";
import { guardedLaunchpadAbi } from "../../contracts/test/abi/guardedLaunchpad";
import { identityGuardGasProbeAbi } from "../../contracts/test/abi/identityGuardGasProbe";
import { launchTokenAbi } from "../../contracts/test/abi/launchToken";
import { revertingIdentityRegistryAbi } from "../../contracts/test/abi/revertingIdentityRegistry";
import { unguardedLaunchpadAbi } from "../../contracts/test/abi/unguardedLaunchpad";
import {
  LAUNCH_DECISION_VALUES,
  launchDecisionDigest,
  launchDecisionDomain,
} from "../../core/decision/onchain";
import { readArtifact } from "../../scripts/evm/artifacts";
import { TEST_ABI_MODULES } from "../../scripts/evm/export-abi";
import { addressOf, inProcessNetwork, nextBlockAt } from "./fixture";
import {
  DECISION_KEY,
  decisionFor,
  deployLaunchpad,
  expectGuardRevert,
  FREE,
  type GuardFixture,
  guardFixture,
  launchWith,
  type Pair,
  pairHashes,
  RESERVED,
  saltOf,
  tokenAt,
} from "./guardFixture";

const TOKEN_SUPPLY = 1_000_000_000n * 10n ** 18n;

describe("IdentityGuard: signed path", () => {
  let fixture: GuardFixture;

  beforeEach(async () => {
    fixture = await guardFixture();
  });

  it("the holder launches its reserved pair with the service's allow: token at the predicted address, supply to the launcher, events", async () => {
    const signed = await decisionFor(fixture, fixture.holder, RESERVED);
    const hash = await launchWith(fixture, fixture.holder, signed);
    const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
    const holder = addressOf(fixture.holder);
    const { nameHash, tickerHash } = pairHashes(RESERVED);

    const [launched] = parseEventLogs({
      abi: guardedLaunchpadAbi,
      logs: receipt.logs,
      eventName: "TokenLaunched",
    });
    expect(launched?.args).to.deep.equal({ launcher: holder, token: signed.token, nameHash, tickerHash });
    const digest = launchDecisionDigest({
      ...signed.fields,
      chainId: fixture.chainId,
      factory: fixture.launchpad.address,
    });
    const [consumed] = parseEventLogs({
      abi: guardedLaunchpadAbi,
      logs: receipt.logs,
      eventName: "LaunchDecisionConsumed",
    });
    expect(consumed?.args).to.deep.equal({
      digest,
      signer: DECISION_KEY.address,
      launcher: holder,
      nonce: signed.nonce,
    });
    expect(await fixture.launchpad.read.decisionUsed([digest])).to.equal(true);

    const token = tokenAt(fixture, signed.token);
    expect(await token.read.name()).to.equal(RESERVED.name);
    expect(await token.read.symbol()).to.equal(RESERVED.ticker);
    expect(await token.read.decimals()).to.equal(18);
    expect(await token.read.totalSupply()).to.equal(TOKEN_SUPPLY);
    expect(await token.read.balanceOf([holder])).to.equal(TOKEN_SUPPLY);
    expect(await fixture.launchpad.read.TOKEN_SUPPLY()).to.equal(TOKEN_SUPPLY);
  });

  it("launches a free pair for any launcher the service allows", async () => {
    const signed = await decisionFor(fixture, fixture.copycat, FREE);
    await launchWith(fixture, fixture.copycat, signed);
    expect(await tokenAt(fixture, signed.token).read.balanceOf([addressOf(fixture.copycat)])).to.equal(
      TOKEN_SUPPLY,
    );
  });

  it("refuses a copycat of a reserved pair with the registry's LaunchRefused, even when it holds a signed allow", async () => {
    const signed = await decisionFor(fixture, fixture.copycat, RESERVED);
    await expectGuardRevert(launchWith(fixture, fixture.copycat, signed), "LaunchRefused", [
      addressOf(fixture.holder),
      fixture.reservedUntil,
    ]);
    // Look-alike spellings fold to the reserved pair and are refused the same way.
    for (const pair of [
      { name: "moon dog", ticker: "moon" },
      { name: "M00N-D0G", ticker: "M00N" },
    ]) {
      const lookalike = await decisionFor(fixture, fixture.copycat, pair);
      await expectGuardRevert(launchWith(fixture, fixture.copycat, lookalike), "LaunchRefused", [
        addressOf(fixture.holder),
        fixture.reservedUntil,
      ]);
    }
  });

  it("reverts DecisionNotAllow on a trusted block decision", async () => {
    const signed = await decisionFor(fixture, fixture.holder, RESERVED, { decision: "block" });
    await expectGuardRevert(launchWith(fixture, fixture.holder, signed), "DecisionNotAllow", []);
  });

  it("surfaces the registry's BadLength for a name or ticker that folds out of bounds", async () => {
    for (const pair of [
      { name: "🚀", ticker: "MOON" },
      { name: "Moon", ticker: "M" },
    ]) {
      const salt = saltOf("bad-length");
      const launcher = addressOf(fixture.holder);
      const token = await fixture.launchpad.read.predictToken([pair.name, pair.ticker, launcher, salt]);
      // The decision cannot even name the pair's keys; any signature is refused before it is read.
      await expectGuardRevert(
        fixture
          .launchpadAs(fixture.holder)
          .write.launch([pair.name, pair.ticker, salt, 2n ** 63n, zeroHash, "0x"]),
        "BadLength",
      );
      await expectGuardRevert(
        fixture.launchpadAs(fixture.holder).write.launchRegistryOnly([pair.name, pair.ticker, salt]),
        "BadLength",
      );
      expect(await fixture.publicClient.getCode({ address: token })).to.equal(undefined);
    }
  });

  it("lets anyone launch the pair on both paths from exactly the reservation's expiry", async () => {
    const signed = await decisionFor(fixture, fixture.copycat, RESERVED, {
      expiresAt: fixture.reservedUntil + 600n,
    });
    await nextBlockAt(fixture.reservedUntil);
    await launchWith(fixture, fixture.copycat, signed);
    await fixture
      .launchpadAs(fixture.other)
      .write.launchRegistryOnly([RESERVED.name, RESERVED.ticker, zeroHash]);
  });
});

describe("IdentityGuard: registry-only path", () => {
  let fixture: GuardFixture;

  beforeEach(async () => {
    fixture = await guardFixture();
  });

  const launchRegistryOnly = (pair: Pair, wallet = fixture.copycat, salt: Hex = zeroHash) =>
    fixture.launchpadAs(wallet).write.launchRegistryOnly([pair.name, pair.ticker, salt]);

  it("launches a free pair for anyone, at the predicted address, naming the pair's keys", async () => {
    const launcher = addressOf(fixture.copycat);
    const predicted = await fixture.launchpad.read.predictToken([FREE.name, FREE.ticker, launcher, zeroHash]);
    const receipt = await fixture.publicClient.waitForTransactionReceipt({
      hash: await launchRegistryOnly(FREE),
    });
    const [launched] = parseEventLogs({
      abi: guardedLaunchpadAbi,
      logs: receipt.logs,
      eventName: "TokenLaunched",
    });
    expect(launched?.args).to.deep.equal({ launcher, token: predicted, ...pairHashes(FREE) });
    expect(
      parseEventLogs({ abi: guardedLaunchpadAbi, logs: receipt.logs, eventName: "LaunchDecisionConsumed" }),
    ).to.deep.equal([]);
    expect(await tokenAt(fixture, predicted).read.balanceOf([launcher])).to.equal(TOKEN_SUPPLY);
  });

  it("launches the reserved pair for its holder, under any spelling that folds to it", async () => {
    await launchRegistryOnly(RESERVED, fixture.holder);
    await launchRegistryOnly({ name: "MOONDOG", ticker: "m00n" }, fixture.holder);
  });

  it("refuses a copycat of the reserved pair, look-alike spellings included, with LaunchRefused", async () => {
    for (const pair of [
      RESERVED,
      { name: "moon dog", ticker: "moon" },
      { name: "M0 0N.D0G!", ticker: "M0ON" },
    ]) {
      await expectGuardRevert(launchRegistryOnly(pair), "LaunchRefused", [
        addressOf(fixture.holder),
        fixture.reservedUntil,
      ]);
    }
    // "$M0ON" folds to SMOON: another pair, which is free.
    await launchRegistryOnly({ name: "Moon Dog", ticker: "$M0ON" });
  });

  it("agrees with the registry's own launchAllowed, up to and from the expiry", async () => {
    const copycat = addressOf(fixture.copycat);
    const allowed = async () =>
      (await fixture.registry.read.launchAllowed([RESERVED.name, RESERVED.ticker, copycat]))[0];
    await nextBlockAt(fixture.reservedUntil - 1n);
    await expectGuardRevert(launchRegistryOnly(RESERVED), "LaunchRefused");
    expect(await allowed()).to.equal(false);
    await nextBlockAt(fixture.reservedUntil);
    await launchRegistryOnly(RESERVED);
    expect(await allowed()).to.equal(true);
  });

  it("refuses a second launch at the same address with TokenDeploymentFailed", async () => {
    await launchRegistryOnly(FREE, fixture.copycat, saltOf("once"));
    const predicted = await fixture.launchpad.read.predictToken([
      FREE.name,
      FREE.ticker,
      addressOf(fixture.copycat),
      saltOf("once"),
    ]);
    await expectGuardRevert(
      fixture
        .launchpadAs(fixture.copycat)
        .write.launchRegistryOnly([FREE.name, FREE.ticker, saltOf("once")], { gas: 3_000_000n }),
      "TokenDeploymentFailed",
      [predicted],
    );
  });

  it("binds the CREATE2 salt to the launcher: the same salt gives each launcher its own address", async () => {
    const salt = saltOf("shared");
    const [a, b] = await Promise.all(
      [fixture.holder, fixture.copycat].map((wallet) =>
        fixture.launchpad.read.predictToken([FREE.name, FREE.ticker, addressOf(wallet), salt]),
      ),
    );
    expect(a).to.not.equal(b);
  });
});

describe("IdentityGuard: EIP-712 domain, construction, typed ABIs", () => {
  let fixture: GuardFixture;

  beforeEach(async () => {
    fixture = await guardFixture();
  });

  it("hashes a LaunchDecision exactly as the service's encoder does (core launchDecisionDigest), for allow and block", async () => {
    const signed = await decisionFor(fixture, fixture.holder, RESERVED);
    for (const decision of ["block", "allow"] as const) {
      const { nameHash, tickerHash, launcher, token, expiresAt, nonce } = signed.fields;
      expect(
        await fixture.launchpad.read.launchDecisionDigest([
          nameHash,
          tickerHash,
          launcher,
          token,
          LAUNCH_DECISION_VALUES[decision],
          expiresAt,
          nonce,
        ]),
      ).to.equal(
        launchDecisionDigest({
          ...signed.fields,
          decision,
          chainId: fixture.chainId,
          factory: fixture.launchpad.address,
        }),
      );
    }
    expect(await fixture.launchpad.read.LAUNCH_DECISION_TYPEHASH()).to.equal(
      keccak256(
        toHex(
          "LaunchDecision(bytes32 nameHash,bytes32 tickerHash,address launcher,address token,uint8 decision,uint64 expiresAt,bytes32 nonce)",
        ),
      ),
    );
    expect(await fixture.launchpad.read.DECISION_ALLOW()).to.equal(1);
    expect(await fixture.launchpad.read.DECISION_BLOCK()).to.equal(0);
  });

  it("publishes its domain (ERC-5267) and separator: IdentityGuard, 1, this chain, this launchpad", async () => {
    const { domain, fields, extensions } = await fixture.publicClient.getEip712Domain({
      address: fixture.launchpad.address,
    });
    expect(fields).to.equal("0x0f");
    expect(extensions).to.deep.equal([]);
    expect(domain).to.deep.equal({
      name: "IdentityGuard",
      version: "1",
      chainId: fixture.chainId,
      verifyingContract: fixture.launchpad.address,
      salt: zeroHash,
    });
    expect({
      ...launchDecisionDomain(fixture.chainId, fixture.launchpad.address),
      salt: zeroHash,
    }).to.deep.equal(domain);
    const domainTypeHash = keccak256(
      toHex("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
    );
    expect(await fixture.launchpad.read.DOMAIN_SEPARATOR()).to.equal(
      keccak256(
        encodeAbiParameters(
          [
            { type: "bytes32" },
            { type: "bytes32" },
            { type: "bytes32" },
            { type: "uint256" },
            { type: "address" },
          ],
          [
            domainTypeHash,
            keccak256(toHex("IdentityGuard")),
            keccak256(toHex("1")),
            BigInt(fixture.chainId),
            fixture.launchpad.address,
          ],
        ),
      ),
    );
  });

  it("names its registry, tells it with IdentityGuardBound, and refuses a registry without code", async () => {
    expect(await fixture.launchpad.read.identityRegistry()).to.equal(getAddress(fixture.registry.address));
    const address = await deployLaunchpad(fixture);
    const logs = await fixture.publicClient.getContractEvents({
      address,
      abi: guardedLaunchpadAbi,
      eventName: "IdentityGuardBound",
      fromBlock: "earliest",
    });
    expect(logs.map((log) => log.args)).to.deep.equal([{ registry: getAddress(fixture.registry.address) }]);
    for (const registry of [zeroAddress, addressOf(fixture.other)]) {
      await expectGuardRevert(deployLaunchpad(fixture, registry), "RegistryNotAContract", [registry]);
    }
  });
});

describe("committed test ABIs of the guard contracts", () => {
  before(async () => {
    await inProcessNetwork(); // compiles the current sources
  });

  const committed: Record<string, unknown> = {
    guardedLaunchpadAbi,
    launchTokenAbi,
    unguardedLaunchpadAbi,
    identityGuardGasProbeAbi,
    revertingIdentityRegistryAbi,
  };

  for (const { contractName, exportName, file } of TEST_ABI_MODULES) {
    it(`${file} matches the compiled ${contractName} (regenerate with npm run abi:contracts)`, () => {
      expect(committed[exportName], `${exportName} is not imported by this test`).to.not.equal(undefined);
      expect(committed[exportName]).to.deep.equal(readArtifact(contractName).abi);
    });
  }
});
