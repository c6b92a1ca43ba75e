// The on-chain guard helpers of the SDK against the real guards: GuardedLaunchpad on Hardhat's in-process network
// and the guarded launch program in litesvm, both set up by the SDK's testing helpers. Each `onchain` answer is
// signed as the service signs it: EIP-712 LaunchDecision by a secp256k1 key (viem's signTypedData over core's typed
// data), Ed25519 over core's solanaLaunchDecisionMessage (noble) by a key the registry trusts.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { signAsync } from "@noble/ed25519";
import { Keypair, PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { expect } from "chai";
import { LiteSVM } from "litesvm";
import { type Address, type Hex, keccak256, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  type EvmLaunchDecisionFields,
  type EvmOnchainDecision,
  launchDecisionTypedData,
  type SolanaOnchainDecision,
  solanaLaunchDecisionMessage,
} from "../../core/decision/onchain";
import { encodeBase64 } from "../../core/encoding/base64";
import { foldedHash, foldV1 } from "../../core/fold";
import {
  type EvmGuardedLaunch,
  GUARDED_LAUNCH_ABI,
  guardedLaunchArgs,
  guardedLaunchInstructions,
  OnchainDecisionError,
  type OnchainDecisionRefusal,
  predictGuardedToken,
  type SolanaGuardedLaunch,
} from "../../sdk/src/onchainGuard";
import { ED25519_DECISION_LAYOUT, LAUNCH_DISCRIMINATOR } from "../../sdk/src/onchainGuard/solanaInstructions";
import {
  deployGuardedLaunchpad,
  deployIdentityRegistry,
  type IdentityPrograms,
  loadIdentityPrograms,
  type TestIdentityRegistry,
  type TestWallet,
} from "../../sdk/src/testing";
import { guardedLaunchpadArtifact } from "../../sdk/src/testing/contracts/guardedLaunchpad";
import { inProcessNetwork } from "../contracts/fixture";

const ROOT = join(__dirname, "..", "..");
const TTL_SECONDS = 600;
const PAIR = { name: "Moon Dog", ticker: "MOON" };
/** The fields a Solana answer's message is made of. */
type Decided = Omit<SolanaOnchainDecision, "kind" | "message" | "keyId" | "signer" | "signature">;

/** Runs `build` and returns the reason of the OnchainDecisionError it throws. */
function refusalOf(build: () => unknown): OnchainDecisionRefusal {
  try {
    build();
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(OnchainDecisionError);
    return (error as OnchainDecisionError).reason;
  }
  throw new Error("Expected the helper to refuse the decision, but it accepted it.");
}

describe("sdk: on-chain guard helpers (EVM, GuardedLaunchpad on Hardhat)", function () {
  this.timeout(120_000);
  const decisionKey = privateKeyToAccount(keccak256(toHex("sdk-onchain-guard:evm-decision-key")));
  let publicClient: Awaited<ReturnType<typeof inProcessNetwork>>["publicClient"];
  let launcher: TestWallet;
  let copycat: TestWallet;
  let identity: TestIdentityRegistry;
  let factory: Address;
  let otherFactory: Address;
  let chainId: number;
  let nonces = 0;

  before(async () => {
    const network = await inProcessNetwork();
    publicClient = network.publicClient;
    const [deployer, first, second] = network.wallets;
    if (!deployer || !first || !second) throw new Error("These tests need three Hardhat accounts.");
    [launcher, copycat] = [first, second];
    identity = await deployIdentityRegistry(deployer, publicClient);
    await identity.setDecisionSigner(decisionKey.address);
    factory = await deployGuardedLaunchpad(deployer, publicClient, identity.registry);
    otherFactory = await deployGuardedLaunchpad(deployer, publicClient, identity.registry);
    chainId = await publicClient.getChainId();
  });

  /** The chain's time, in the caller-clock form the helpers take (epoch ms). */
  async function chainNow(): Promise<number> {
    return Number((await publicClient.getBlock()).timestamp) * 1000;
  }

  /** What `wallet` is about to send: the pair, a salt, and the token the factory predicts for them. */
  async function launchOf(wallet: TestWallet, label: string): Promise<EvmGuardedLaunch> {
    const salt = keccak256(toHex(`salt:${label}`));
    const params = { factory, ...PAIR, launcher: wallet.account.address, salt };
    const token = await predictGuardedToken(publicClient, params);
    return { ...params, chainId, token };
  }

  /** The `onchain` the service answers for `launch` (any signed field overridden), signed by the decision key. */
  async function answerFor(
    launch: EvmGuardedLaunch,
    overrides: Partial<EvmLaunchDecisionFields> = {},
  ): Promise<EvmOnchainDecision> {
    nonces += 1;
    const fields = {
      chainId: launch.chainId,
      factory: launch.factory,
      nameHash: foldedHash(foldV1(launch.name)),
      tickerHash: foldedHash(foldV1(launch.ticker)),
      launcher: launch.launcher,
      token: launch.token,
      decision: "allow" as const,
      expiresAt: (await chainNow()) / 1000 + TTL_SECONDS,
      nonce: keccak256(toHex(`nonce:${nonces}`)),
      ...overrides,
    };
    const typedData = launchDecisionTypedData(fields);
    return {
      kind: "evm",
      registry: identity.registry,
      chainId: typedData.domain.chainId,
      factory: typedData.domain.verifyingContract,
      ...typedData.message,
      decision: fields.decision,
      expiresAt: Number(typedData.message.expiresAt),
      keyId: "evm-test-key",
      signer: decisionKey.address,
      signature: await decisionKey.signTypedData(typedData),
    };
  }

  it("turns an allow into launch's arguments, and the factory launches the predicted token with them", async () => {
    const launch = await launchOf(launcher, "allowed");
    const args = guardedLaunchArgs(await answerFor(launch), launch, { now: await chainNow() });
    const hash = await launcher.writeContract({
      address: factory,
      abi: GUARDED_LAUNCH_ABI,
      functionName: "launch",
      args,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).to.equal("success");
    expect(await publicClient.getCode({ address: launch.token as Address })).to.match(/^0x[0-9a-f]{2,}$/);
  });

  it("its ABI is the reference launchpad's launch and predictToken", () => {
    const compiled = guardedLaunchpadArtifact.abi.filter(
      (item) => item.type === "function" && (item.name === "launch" || item.name === "predictToken"),
    );
    const shape = (items: readonly { name?: string; inputs?: readonly { type: string }[] }[]) =>
      items.map((item) => `${item.name}(${item.inputs?.map((input) => input.type).join(",")})`).sort();
    expect(shape(GUARDED_LAUNCH_ABI)).to.deep.equal(shape(compiled));
  });

  it("refuses a block decision, an expired one, and one of the other chain", async () => {
    const launch = await launchOf(launcher, "refused");
    const now = await chainNow();
    const allow = await answerFor(launch);
    expect(refusalOf(() => guardedLaunchArgs({ ...allow, decision: "block" }, launch, { now }))).to.equal(
      "not_allow",
    );
    const expiredAt = allow.expiresAt * 1000;
    expect(refusalOf(() => guardedLaunchArgs(allow, launch, { now: expiredAt }))).to.equal("expired");
    expect(guardedLaunchArgs(allow, launch, { now: expiredAt - 1000 })[3]).to.equal(BigInt(allow.expiresAt));
    const solana = { ...allow, kind: "solana" } as unknown as EvmOnchainDecision;
    expect(refusalOf(() => guardedLaunchArgs(solana, launch, { now }))).to.equal("wrong_chain_kind");
    const truncated = { ...allow, signature: allow.signature.slice(0, 130) as Hex };
    expect(refusalOf(() => guardedLaunchArgs(truncated, launch, { now }))).to.equal("malformed");
  });

  it("refuses a decision for another token, launcher, factory, chain or pair", async () => {
    const launch = await launchOf(launcher, "mismatched");
    const now = await chainNow();
    const other = await launchOf(copycat, "mismatched");
    const cases: [Partial<EvmLaunchDecisionFields>, OnchainDecisionRefusal][] = [
      [{ token: (await launchOf(launcher, "another salt")).token }, "token_mismatch"],
      [{ launcher: other.launcher }, "launcher_mismatch"],
      [{ factory: otherFactory }, "launchpad_mismatch"],
      [{ chainId: chainId + 1 }, "chain_mismatch"],
      [{ nameHash: foldedHash(foldV1("Sun Cat")) }, "identity_mismatch"],
    ];
    for (const [overrides, reason] of cases) {
      const answer = await answerFor(launch, overrides);
      expect(
        refusalOf(() => guardedLaunchArgs(answer, launch, { now })),
        JSON.stringify(overrides),
      ).to.equal(reason);
    }
    // The launch the copycat would send instead of the one decided: refused by the same comparison.
    const answer = await answerFor(launch);
    expect(refusalOf(() => guardedLaunchArgs(answer, other, { now }))).to.equal("launcher_mismatch");
  });
});

describe("sdk: on-chain guard helpers (Solana, the guarded launch program in litesvm)", function () {
  this.timeout(60_000);
  const decisionKey = Keypair.generate();
  let programs: IdentityPrograms;

  before(() => {
    programs = loadIdentityPrograms(new LiteSVM());
    programs.setDecisionSigner(decisionKey.publicKey);
  });

  /** The clock the program judges expiry by, in the caller-clock form the helpers take (epoch ms). */
  const clockNow = () => Number(programs.svm.getClock().unixTimestamp) * 1000;

  function launchOf(launcher: Keypair, mint: Keypair): SolanaGuardedLaunch {
    return {
      ...PAIR,
      launcher: launcher.publicKey,
      mint: mint.publicKey,
      launchpadProgram: programs.launchpadProgram,
    };
  }

  /** The `onchain` the service answers for `launch` (any signed field overridden), signed by the decision key. */
  async function answerFor(
    launch: SolanaGuardedLaunch,
    overrides: Partial<Decided> = {},
  ): Promise<SolanaOnchainDecision> {
    const fields: Decided = {
      cluster: programs.cluster,
      registryProgram: programs.registryProgram.toBase58(),
      launchpadProgram: new PublicKey(launch.launchpadProgram).toBase58(),
      nameHash: foldedHash(foldV1(launch.name)),
      tickerHash: foldedHash(foldV1(launch.ticker)),
      launcher: new PublicKey(launch.launcher).toBase58(),
      mint: new PublicKey(launch.mint).toBase58(),
      decision: "allow" as const,
      expiresAt: clockNow() / 1000 + TTL_SECONDS,
      nonce: toHex(randomBytes(16)),
      ...overrides,
    };
    const message = solanaLaunchDecisionMessage(fields);
    const signature = await signAsync(message, decisionKey.secretKey.subarray(0, 32));
    return {
      ...fields,
      kind: "solana",
      message: encodeBase64(message),
      keyId: "solana-test-key",
      signer: decisionKey.publicKey.toBase58(),
      signature: encodeBase64(signature),
    };
  }

  it("turns an allow into the Ed25519 and launch instructions, and the program launches with them", async () => {
    const [launcher, mint] = [programs.fundedWallet(), Keypair.generate()];
    const launch = launchOf(launcher, mint);
    const instructions = guardedLaunchInstructions(await answerFor(launch), launch, { now: clockNow() });
    programs.send(instructions, [launcher, mint]);
    const account = programs.svm.getAccount(mint.publicKey.toBase58() as never);
    expect(account.exists && account.programAddress).to.equal(programs.launchpadProgram.toBase58());
  });

  it("lays the Ed25519 instruction out as decision.c requires: one signature, offsets 16/48/112, indices u16::MAX", async () => {
    const [launcher, mint] = [programs.fundedWallet(), Keypair.generate()];
    const launch = launchOf(launcher, mint);
    const answer = await answerFor(launch);
    const [ed25519] = guardedLaunchInstructions(answer, launch, { now: clockNow() });
    const data = ed25519.data;
    const u16At = (offset: number) => data.readUInt16LE(offset);
    expect(ed25519.programId.toBase58()).to.equal("Ed25519SigVerify111111111111111111111111111");
    expect(ed25519.keys).to.deep.equal([]);
    expect([data[0], data.length]).to.deep.equal([1, 112 + 265]);
    expect([2, 4, 6, 8, 10, 12, 14].map(u16At)).to.deep.equal([48, 0xffff, 16, 0xffff, 112, 265, 0xffff]);
    expect(ED25519_DECISION_LAYOUT).to.deep.equal(layoutH());
    expect(data.subarray(16, 48)).to.deep.equal(decisionKey.publicKey.toBuffer());
    expect(data.subarray(112).toString("base64")).to.equal(answer.message);
  });

  it("orders the launch's accounts and encodes its discriminator as the program's IDL declares them", async () => {
    const [launcher, mint] = [programs.fundedWallet(), Keypair.generate()];
    const launch = launchOf(launcher, mint);
    const [, instruction] = guardedLaunchInstructions(await answerFor(launch), launch, { now: clockNow() });
    const idl = JSON.parse(
      readFileSync(join(ROOT, "programs", "guarded_launchpad", "idl", "guarded_launchpad.json"), "utf8"),
    );
    const declared = idl.instructions.find((item: { name: string }) => item.name === "launch");
    expect([...LAUNCH_DISCRIMINATOR]).to.deep.equal(declared.discriminator);
    expect([...instruction.data.subarray(0, 8)]).to.deep.equal(declared.discriminator);
    const flags = (keys: TransactionInstruction["keys"]) => keys.map((key) => [key.isSigner, key.isWritable]);
    expect(flags(instruction.keys)).to.deep.equal(
      declared.accounts.map((account: { signer?: boolean; writable?: boolean }) => [
        account.signer === true,
        account.writable === true,
      ]),
    );
    expect(instruction.keys[0]?.pubkey.equals(launcher.publicKey)).to.equal(true);
    expect(instruction.keys[2]?.pubkey.equals(mint.publicKey)).to.equal(true);
  });

  it("refuses a block decision, an expired one, a tampered message, and one of the other chain", async () => {
    const launch = launchOf(programs.fundedWallet(), Keypair.generate());
    const now = clockNow();
    const allow = await answerFor(launch);
    const block = await answerFor(launch, { decision: "block" });
    expect(refusalOf(() => guardedLaunchInstructions(block, launch, { now }))).to.equal("not_allow");
    const expiredAt = allow.expiresAt * 1000;
    expect(refusalOf(() => guardedLaunchInstructions(allow, launch, { now: expiredAt }))).to.equal("expired");
    // The fields say allow, the signed message says block: the message is what the program verifies.
    const relabelled = { ...block, decision: "allow" as const };
    expect(refusalOf(() => guardedLaunchInstructions(relabelled, launch, { now }))).to.equal(
      "message_mismatch",
    );
    const evm = { ...allow, kind: "evm" } as unknown as SolanaOnchainDecision;
    expect(refusalOf(() => guardedLaunchInstructions(evm, launch, { now }))).to.equal("wrong_chain_kind");
    const shortSignature = { ...allow, signature: encodeBase64(new Uint8Array(63)) };
    expect(refusalOf(() => guardedLaunchInstructions(shortSignature, launch, { now }))).to.equal("malformed");
  });

  it("refuses a decision for another mint, launcher, launch program or pair, and another cluster or registry", async () => {
    const launch = launchOf(programs.fundedWallet(), Keypair.generate());
    const now = clockNow();
    const elsewhere = () => Keypair.generate().publicKey.toBase58();
    const cases: [Partial<Decided>, OnchainDecisionRefusal][] = [
      [{ mint: elsewhere() }, "token_mismatch"],
      [{ launcher: elsewhere() }, "launcher_mismatch"],
      [{ launchpadProgram: elsewhere() }, "launchpad_mismatch"],
      [{ tickerHash: foldedHash(foldV1("SUNC")) }, "identity_mismatch"],
    ];
    for (const [overrides, reason] of cases) {
      const answer = await answerFor(launch, overrides);
      const refusal = refusalOf(() => guardedLaunchInstructions(answer, launch, { now }));
      expect(refusal, JSON.stringify(overrides)).to.equal(reason);
    }
    const devnet = await answerFor(launch, { cluster: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG" });
    expect(guardedLaunchInstructions(devnet, launch, { now })).to.have.length(2); // not asked: the program refuses
    const askCluster = { ...launch, cluster: programs.cluster };
    expect(refusalOf(() => guardedLaunchInstructions(devnet, askCluster, { now }))).to.equal(
      "chain_mismatch",
    );
    const otherRegistry = await answerFor(launch, { registryProgram: elsewhere() });
    const askRegistry = { ...launch, registryProgram: programs.registryProgram };
    const refusal = refusalOf(() => guardedLaunchInstructions(otherRegistry, askRegistry, { now }));
    expect(refusal).to.equal("registry_mismatch");
  });
});

/** ED25519_PUBKEY, ED25519_SIGNATURE, ED25519_MESSAGE and ED25519_THIS_INSTRUCTION of the program's layout.h. */
function layoutH() {
  const header = readFileSync(join(ROOT, "programs", "guarded_launchpad", "src", "layout.h"), "utf8");
  const value = (name: string) => Number(new RegExp(`#define ${name} (\\w+)`).exec(header)?.[1]);
  return {
    publicKeyOffset: value("ED25519_PUBKEY"),
    signatureOffset: value("ED25519_SIGNATURE"),
    messageOffset: value("ED25519_MESSAGE"),
    thisInstruction: value("ED25519_THIS_INSTRUCTION"),
  };
}
