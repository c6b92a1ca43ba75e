// The SDK's testing helpers as a launchpad engineer uses them: the registry and the guard in their own Hardhat test
// and the programs in their own litesvm test, a test key's decision and a launch, in a few lines (the first test of
// each chain is sdk/README.md's example); the launch program deployed over a real local RPC; the shipped bytecode
// equal to the compiled contracts. The built testing entry imported by name is in package.test.ts, beside the
// package's one build.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import { LiteSVM } from "litesvm";
import { keccak256, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foldedHashBytes, foldV1 } from "../../core/fold";
import { readArtifact } from "../../scripts/evm/artifacts";
import { SDK_ARTIFACT_MODULES } from "../../scripts/evm/export-abi";
import { type SolanaRpc, startSolanaRpc } from "../../scripts/localnet/solana/server";
import {
  GUARDED_LAUNCH_ABI,
  guardedLaunchArgs,
  guardedLaunchInstructions,
  predictGuardedToken,
} from "../../sdk/src/onchainGuard";
import { configAddress, reservationAddress } from "../../sdk/src/onchainGuard/solanaAddresses";
import {
  airdroppedWallet,
  deployGuardedLaunchpad,
  deployGuardedLaunchpadProgram,
  deployIdentityRegistry,
  guardedLaunchpadArtifact,
  identityRegistryArtifact,
  LOCAL_LAUNCHPAD_PROGRAM_ID,
  LOCAL_REGISTRY_PROGRAM_ID,
  loadIdentityPrograms,
  localPriceFeedArtifact,
  signEvmTestDecision,
  signSolanaTestDecision,
  TestTransactionError,
} from "../../sdk/src/testing";
import { inProcessNetwork } from "../contracts/fixture";

const ROOT = resolve(__dirname, "..", "..");

describe("sdk testing helpers: the registry and the guard on Hardhat", function () {
  this.timeout(120_000);

  it("deploy, trust a test key, reserve a pair and launch with a signed decision in a few lines", async () => {
    const { publicClient, wallets } = await inProcessNetwork();
    const [deployer, holder, copycat] = wallets;
    if (!deployer || !holder || !copycat) throw new Error("This test needs three Hardhat accounts.");
    const decisionKey = privateKeyToAccount(keccak256(toHex("sdk-testing:decision-key")));

    const identity = await deployIdentityRegistry(deployer, publicClient);
    const factory = await deployGuardedLaunchpad(deployer, publicClient, identity.registry);
    await identity.setDecisionSigner(decisionKey.address);
    await identity.reserve(holder, "Moon Dog", "MOON");

    const launch = {
      name: "Moon Dog",
      ticker: "MOON",
      salt: keccak256(toHex("salt")),
      launcher: holder.account.address,
      factory,
      chainId: await publicClient.getChainId(),
    };
    const token = await predictGuardedToken(publicClient, launch);
    const now = Number((await publicClient.getBlock()).timestamp);
    const onchain = await signEvmTestDecision(decisionKey, {
      ...launch,
      registry: identity.registry,
      token,
      expiresAt: now + 600,
    });
    const args = guardedLaunchArgs(onchain, { ...launch, token }, { now: now * 1000 });
    const hash = await holder.writeContract({
      address: factory,
      abi: GUARDED_LAUNCH_ABI,
      functionName: "launch",
      args,
    });
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");

    // The reservation refuses the copycat (here through the registry's own view).
    const registry = { address: identity.registry, abi: identityRegistryArtifact.abi } as const;
    const allowed = (wallet: typeof holder) =>
      publicClient.readContract({
        ...registry,
        functionName: "launchAllowed",
        args: ["MOON DOG", "moon", wallet.account.address],
      });
    expect((await allowed(holder))[0]).to.equal(true);
    expect((await allowed(copycat))[0]).to.equal(false);
  });

  it("ship the compiled bytecode and ABIs (regenerate with npm run abi:contracts)", async () => {
    await inProcessNetwork(); // compiles the current sources
    const shipped: Record<string, { abi: unknown; bytecode: string }> = {
      identityRegistryArtifact,
      localPriceFeedArtifact,
      guardedLaunchpadArtifact,
    };
    for (const { contractName, exportName, file } of SDK_ARTIFACT_MODULES) {
      const { abi, bytecode } = readArtifact(contractName);
      const committed = shipped[exportName];
      if (committed === undefined) throw new Error(`${file} is not imported by this test`);
      expect(committed.abi, `${file}'s ABI`).to.deep.equal(abi);
      // Compared whole: a diff of 25 kB of hex says nothing more than "regenerate".
      expect(
        committed.bytecode === bytecode,
        `${file}'s bytecode is the compiled ${contractName}'s`,
      ).to.equal(true);
    }
  });
});

describe("sdk testing helpers: the programs in litesvm", function () {
  this.timeout(60_000);

  it("load, trust a test key, reserve a pair and launch with a signed decision in a few lines", async () => {
    const programs = loadIdentityPrograms(new LiteSVM());
    const decisionKey = Keypair.generate();
    programs.setDecisionSigner(decisionKey.publicKey);
    const holder = programs.fundedWallet();
    programs.reserve(holder, "Moon Dog", "MOON");

    const mint = Keypair.generate();
    const launch = {
      name: "Moon Dog",
      ticker: "MOON",
      launcher: holder.publicKey,
      mint: mint.publicKey,
      launchpadProgram: programs.launchpadProgram,
    };
    const onchain = await signSolanaTestDecision(decisionKey, {
      ...launch,
      cluster: programs.cluster,
      registryProgram: programs.registryProgram,
      expiresAt: Number(programs.svm.getClock().unixTimestamp) + 600,
    });
    programs.send(guardedLaunchInstructions(onchain, launch), [holder, mint]);

    const account = programs.svm.getAccount(mint.publicKey.toBase58() as never);
    expect(account.exists && account.programAddress).to.equal(programs.launchpadProgram.toBase58());
  });

  it("reserve holds the pair: a trusted key's allow for a copycat is refused by the registry", async () => {
    const programs = loadIdentityPrograms(new LiteSVM());
    const decisionKey = Keypair.generate();
    programs.setDecisionSigner(decisionKey.publicKey);
    const holder = programs.fundedWallet();
    programs.reserve(holder, "Moon Dog", "MOON");

    const reservation = reservationAddress(
      programs.registryProgram,
      foldedHashBytes(foldV1("Moon Dog")),
      foldedHashBytes(foldV1("MOON")),
    );
    const account = programs.svm.getAccount(reservation.toBase58() as never);
    if (!account.exists) throw new Error("reserve created no reservation account");
    expect(new PublicKey(account.data.subarray(8, 40)).equals(holder.publicKey)).to.equal(true);

    const [copycat, mint] = [programs.fundedWallet(), Keypair.generate()];
    const launch = {
      name: "Moon Dog",
      ticker: "MOON",
      launcher: copycat.publicKey,
      mint: mint.publicKey,
      launchpadProgram: programs.launchpadProgram,
    };
    const onchain = await signSolanaTestDecision(decisionKey, {
      ...launch,
      cluster: programs.cluster,
      registryProgram: programs.registryProgram,
      expiresAt: Number(programs.svm.getClock().unixTimestamp) + 600,
    });
    expect(() => programs.send(guardedLaunchInstructions(onchain, launch), [copycat, mint]))
      .to.throw(TestTransactionError)
      .with.property("logs")
      .that.satisfies((logs: string[]) => logs.some((line) => /LaunchRefused/.test(line)));
  });

  it("default to the programs' local development ids, their IDLs' addresses", () => {
    const address = (program: string) =>
      JSON.parse(readFileSync(join(ROOT, "programs", program, "idl", `${program}.json`), "utf8")).address;
    expect(LOCAL_REGISTRY_PROGRAM_ID.toBase58()).to.equal(address("identity_registry"));
    expect(LOCAL_LAUNCHPAD_PROGRAM_ID.toBase58()).to.equal(address("guarded_launchpad"));
  });
});

describe("sdk testing helpers: the launch program over a real RPC", function () {
  this.timeout(60_000);
  let rpc: SolanaRpc;

  before(async () => {
    rpc = await startSolanaRpc({ port: 0, slotMs: 50 });
  });
  after(() => rpc?.stop());

  it("deploy it through the upgradeable loader, initialized for the registry and the RPC's cluster", async () => {
    const connection = new Connection(rpc.rpcUrl, "confirmed");
    const payer = await airdroppedWallet(connection, 10 * LAMPORTS_PER_SOL);
    const program = Keypair.generate();
    const registryProgram = LOCAL_REGISTRY_PROGRAM_ID;

    const programId = await deployGuardedLaunchpadProgram(connection, payer, { registryProgram, program });

    expect(programId.equals(program.publicKey)).to.equal(true);
    expect((await connection.getAccountInfo(programId))?.executable).to.equal(true);
    const config = await connection.getAccountInfo(configAddress(programId));
    if (config === null) throw new Error("initialize created no config account");
    expect(config.owner.equals(programId)).to.equal(true);
    // LaunchpadConfig (programs/guarded_launchpad/src/layout.h): admin at 8, registry program at 40, cluster at 104.
    const key = (offset: number) => new PublicKey(config.data.subarray(offset, offset + 32));
    expect(key(8).equals(payer.publicKey)).to.equal(true);
    expect(key(40).equals(registryProgram)).to.equal(true);
    expect(key(104).toBase58()).to.equal(await connection.getGenesisHash());
  });
});
