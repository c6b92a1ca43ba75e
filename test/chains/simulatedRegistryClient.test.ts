// The sandbox's simulated registries and the catalogue: reference prices, transactions built offline by the
// production builders for the chain's sandbox deployment (none without one), and no chain behind them. No RPC
// endpoint exists in these tests: any call would fail.
import { randomBytes } from "node:crypto";
import { PublicKey, Transaction } from "@solana/web3.js";
import { expect } from "chai";
import { decodeFunctionData } from "viem";
import { registryCatalogue } from "../../chains/catalogue";
import { evmCommitment } from "../../chains/evm/commitment";
import { feeWei } from "../../chains/evm/fee";
import { EvmRegistryClient } from "../../chains/evm/registryClient";
import type {
  EvmTransactionRequest,
  PreparedSteps,
  SolanaTransactionRequest,
} from "../../chains/registryClient";
import {
  SIMULATED_BLOCKHASH,
  SimulatedEvmRegistry,
  SimulatedSolanaRegistry,
} from "../../chains/simulated/registryClient";
import { commitmentAddress, reservationAddress } from "../../chains/solana/addresses";
import { solanaCommitment } from "../../chains/solana/commitment";
import { registryCoder } from "../../chains/solana/idl";
import { SolanaRegistryClient } from "../../chains/solana/registryClient";
import type { DeploymentManifest } from "../../config/manifest";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { normalizeIdentity } from "../../core/fold";
import { MAX_COMMITMENT_AGE_SECONDS, newReservationId, partnerRefOf } from "../../core/reservation";
import { devWallet } from "../../scripts/localnet";

/** Nothing listens on these URLs: a simulated client that touched them would fail. */
const MANIFEST: DeploymentManifest = {
  evm: [
    {
      chain: "base",
      chainId: 8453,
      rpcUrl: "http://127.0.0.1:9",
      registry: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
      priceFeed: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      deployBlock: 1,
      sandbox: { registry: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0" },
    },
  ],
  solana: [
    {
      chain: "solana",
      rpcUrl: "http://127.0.0.1:9",
      wsUrl: "ws://127.0.0.1:10",
      programId: "8ayMv5K1FBk5RzfRSq7CDDGsbdNxDqXiULxfEKC3eQGt",
      priceAccount: "DjXkzjLGHRdV4Uo8mb93WQWeCzhJaWFjy5ryJ1k5xv39",
      configAccount: "EzWCT7BSBQVbPrRdnQQG5kpa7J1YdSA1cV5XhuVrzxC6",
      deploySlot: 1,
      sandbox: {
        programId: "3UaobZRsGJvVMuRvD4hucjxgqNnQvshhFcvm9gDTsD8b",
        configAccount: "DjtR6NeyeXzXmi5tuCS1pWqheAxAViPY37c5AvsaY3wb",
        priceAccount: "4dH7ncy9MQY3KDTsAVsYra6zMn9jbbtLpY7TFSUEvy2R",
      },
    },
  ],
};
const NOW = Date.parse("2026-01-01T00:00:00Z");
const identity = normalizeIdentity("Sandbox Fox", "sfox");
const newSecret = (): `0x${string}` => `0x${randomBytes(32).toString("hex")}`;

/** A new reservation's steps: the commitment and its reveal, never null for a chain with a sandbox deployment. */
function commitAndReveal(steps: PreparedSteps | null) {
  if (steps?.reveal == null) throw new Error("expected a commitment and its reveal");
  return { commit: steps.transaction, reveal: steps.reveal };
}

describe("chains: simulated registries (sandbox)", () => {
  const evm = new SimulatedEvmRegistry(MANIFEST.evm[0] as DeploymentManifest["evm"][number], {
    now: () => NOW,
  });
  const solana = new SimulatedSolanaRegistry(MANIFEST.solana[0] as DeploymentManifest["solana"][number], {
    now: () => NOW,
  });

  it("quotes every tier at the reference prices, published now and valid for the registries' default bounds", async () => {
    const evmQuote = await evm.quote(86_400);
    expect(evmQuote).to.deep.include({ chain: "base", unit: "wei", priceUsd: 3_000, simulated: true });
    expect(evmQuote.amount).to.equal(feeWei(5_000_000n, 3_000_00000000n, 8));
    expect(evmQuote.priceUpdatedAt.getTime()).to.equal(NOW);
    expect(evmQuote.expiresAt.getTime()).to.equal(NOW + 4_500_000);

    const solanaQuote = await solana.quote(2_592_000);
    expect(solanaQuote).to.deep.include({
      chain: "solana",
      unit: "lamports",
      priceUsd: 150,
      simulated: true,
    });
    expect(solanaQuote.usdMicros).to.equal(80_000_000n);
    expect(solanaQuote.amount).to.equal(533_333_334n); // 80 USD / 150 USD per SOL, rounded up
    expect(solanaQuote.expiresAt.getTime()).to.equal(NOW + 60_000);
  });

  it("builds the EVM commit, reveal and renew calldata to the manifest's sandbox registry, offline", async () => {
    const partnerRef = partnerRefOf(newReservationId());
    const launcher = devWallet("creator").evm.address;
    const quote = await evm.quote(604_800);
    const secret = newSecret();
    const steps = commitAndReveal(
      await evm.prepareTransaction({
        identity,
        launcher: launcher.toLowerCase(),
        durationSeconds: 604_800,
        partnerRef,
        kind: "reserve",
        quote,
        secret,
      }),
    );
    const commitment = evmCommitment({ identity, launcher, durationSeconds: 604_800, partnerRef, secret });
    expect(steps.reveal).to.deep.include({
      commitment,
      minCommitmentAge: { seconds: 1 },
      maxCommitmentAgeSeconds: MAX_COMMITMENT_AGE_SECONDS,
    });
    const commit = steps.commit as EvmTransactionRequest;
    expect(commit).to.include({
      family: "evm",
      chainId: 8453,
      from: launcher,
      to: MANIFEST.evm[0]?.sandbox?.registry,
      value: "0",
    });
    expect(decodeFunctionData({ abi: identityRegistryAbi, data: commit.data })).to.deep.equal({
      functionName: "commit",
      args: [commitment],
    });
    const reserve = steps.reveal.transaction as EvmTransactionRequest;
    expect(reserve).to.include({
      family: "evm",
      chainId: 8453,
      from: launcher,
      to: MANIFEST.evm[0]?.sandbox?.registry,
    });
    expect(BigInt(reserve.value)).to.equal((quote.amount * 10_200n + 9_999n) / 10_000n);
    expect(decodeFunctionData({ abi: identityRegistryAbi, data: reserve.data })).to.deep.equal({
      functionName: "reserve",
      args: ["SANDBOXFOX", "SFOX", 604_800, partnerRef, secret],
    });
    // A deployment that names its own minimum commitment age is prepared with it.
    const slower = new SimulatedEvmRegistry(
      { ...(MANIFEST.evm[0] as DeploymentManifest["evm"][number]), minCommitmentAgeSeconds: 60 },
      { now: () => NOW },
    );
    const slowerSteps = commitAndReveal(
      await slower.prepareTransaction({
        identity,
        launcher,
        durationSeconds: 604_800,
        partnerRef,
        kind: "reserve",
        quote,
        secret,
      }),
    );
    expect(slowerSteps.reveal.minCommitmentAge).to.deep.equal({ seconds: 60 });
    expect(slowerSteps.reveal.commitment).to.equal(commitment);

    const renewal = await evm.prepareTransaction({
      identity,
      launcher,
      durationSeconds: 86_400,
      partnerRef,
      kind: "renew",
      quote,
      secret: null,
    });
    expect(renewal?.reveal).to.equal(null);
    const renew = renewal?.transaction as EvmTransactionRequest;
    expect(renew).to.include({ to: MANIFEST.evm[0]?.sandbox?.registry });
    expect(decodeFunctionData({ abi: identityRegistryAbi, data: renew.data })).to.deep.equal({
      functionName: "renew",
      args: [identity.nameHash, identity.tickerHash, 86_400, partnerRef],
    });
  });

  it("builds the Solana commit and reveal transactions for the sandbox program, with a placeholder blockhash no cluster knows", async () => {
    const launcher = devWallet("creator").solana.publicKey;
    const partnerRef = partnerRefOf(newReservationId());
    const secret = newSecret();
    const steps = commitAndReveal(
      await solana.prepareTransaction({
        identity,
        launcher: launcher.toBase58(),
        durationSeconds: 86_400,
        partnerRef,
        kind: "reserve",
        quote: await solana.quote(86_400),
        secret,
      }),
    );
    const sandboxProgram = new PublicKey(MANIFEST.solana[0]?.sandbox?.programId as string);
    const commitment = solanaCommitment({ identity, launcher, durationSeconds: 86_400, partnerRef, secret });
    expect(steps.reveal).to.deep.include({
      commitment,
      minCommitmentAge: { slots: 1 },
      maxCommitmentAgeSeconds: MAX_COMMITMENT_AGE_SECONDS,
    });
    const [commit, reserve] = [steps.commit, steps.reveal.transaction].map((prepared) => {
      expect(prepared).to.include({
        family: "solana",
        feePayer: launcher.toBase58(),
        recentBlockhash: SIMULATED_BLOCKHASH,
        lastValidBlockHeight: 0,
      });
      const instruction = Transaction.from(Buffer.from((prepared as SolanaTransactionRequest).tx, "base64"))
        .instructions[1];
      expect(instruction?.programId.toBase58()).to.equal(sandboxProgram.toBase58());
      return instruction;
    });
    const commitmentAccount = commitmentAddress(sandboxProgram, launcher, commitment).toBase58();
    expect(commit?.keys[1]?.pubkey.toBase58()).to.equal(commitmentAccount);
    expect(registryCoder().instruction.decode(commit?.data as Buffer)).to.deep.equal({
      name: "commit",
      data: { commitment: Array.from(Buffer.from(commitment.slice(2), "hex")) },
    });
    expect(reserve?.keys[3]?.pubkey.toBase58()).to.equal(
      reservationAddress(sandboxProgram, identity.nameHash, identity.tickerHash).toBase58(),
    );
    expect(reserve?.keys.at(-1)?.pubkey.toBase58()).to.equal(commitmentAccount);
    const decoded = registryCoder().instruction.decode(reserve?.data as Buffer);
    expect(decoded?.name).to.equal("reserve");
    expect(decoded?.data).to.include({ name: "SANDBOXFOX", ticker: "SFOX" });
    expect(decoded?.data).to.deep.include({ secret: Array.from(Buffer.from(secret.slice(2), "hex")) });
  });

  it("builds a Solana renewal for the sandbox program as one transaction, with no commitment", async () => {
    const launcher = devWallet("creator").solana.publicKey;
    const renewal = await solana.prepareTransaction({
      identity,
      launcher: launcher.toBase58(),
      durationSeconds: 86_400,
      partnerRef: partnerRefOf(newReservationId()),
      kind: "renew",
      quote: await solana.quote(86_400),
      secret: null,
    });
    if (renewal === null) throw new Error("the sandbox prepared no renewal");
    expect(renewal.reveal).to.equal(null);
    const renew = Transaction.from(
      Buffer.from((renewal.transaction as SolanaTransactionRequest).tx, "base64"),
    ).instructions[1];
    expect(renew?.programId.toBase58()).to.equal(MANIFEST.solana[0]?.sandbox?.programId);
    expect(renew?.keys).to.have.length(7);
    expect(registryCoder().instruction.decode(renew?.data as Buffer)?.name).to.equal("renew");
  });

  it("builds no transaction at all for a chain without a sandbox deployment", async () => {
    const { sandbox: _evm, ...evmEntry } = MANIFEST.evm[0] as DeploymentManifest["evm"][number];
    const { sandbox: _solana, ...solanaEntry } = MANIFEST.solana[0] as DeploymentManifest["solana"][number];
    const request = {
      identity,
      durationSeconds: 86_400 as const,
      partnerRef: partnerRefOf(newReservationId()),
      kind: "reserve" as const,
      secret: newSecret(),
    };
    const evmOnly = new SimulatedEvmRegistry(evmEntry, { now: () => NOW });
    const solanaOnly = new SimulatedSolanaRegistry(solanaEntry, { now: () => NOW });
    expect(
      await evmOnly.prepareTransaction({
        ...request,
        launcher: devWallet("creator").evm.address,
        quote: await evmOnly.quote(86_400),
      }),
    ).to.equal(null);
    expect(
      await solanaOnly.prepareTransaction({
        ...request,
        launcher: devWallet("creator").solana.publicKey.toBase58(),
        quote: await solanaOnly.quote(86_400),
      }),
    ).to.equal(null);
  });

  it("has no chain behind it: no record, no active reservations, no commitment, no transaction, no settlement", async () => {
    for (const registry of [evm, solana]) {
      expect(await registry.reservationOf(identity)).to.equal(null);
      expect(await registry.activeReservationCount("anything")).to.equal(0);
      expect(await registry.commitmentOf("anything", `0x${"ab".repeat(32)}`)).to.equal(null);
      expect(await registry.stepOf("anything")).to.equal(null);
      expect(await registry.transactionOutcome("anything")).to.deep.equal({ state: "not_found" });
      expect(await registry.settlementOf("anything")).to.equal(null);
    }
    expect(evm.isTransactionHash(`0x${"ab".repeat(32)}`)).to.equal(true);
    expect(solana.isTransactionHash(`0x${"ab".repeat(32)}`)).to.equal(false);
  });

  it("refuses a launcher that is not a Solana public key instead of building a transaction", async () => {
    const error = await solana
      .prepareTransaction({
        identity,
        launcher: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        durationSeconds: 86_400,
        partnerRef: partnerRefOf(newReservationId()),
        kind: "reserve",
        quote: await solana.quote(86_400),
        secret: newSecret(),
      })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(TypeError);
  });
});

describe("chains: registry catalogue", () => {
  it("maps each manifest chain to a real client for production and a simulated one for the sandbox", () => {
    const catalogue = registryCatalogue(MANIFEST);
    expect([...catalogue.production.keys()]).to.deep.equal(["base", "solana"]);
    expect(catalogue.production.get("base")).to.be.instanceOf(EvmRegistryClient);
    expect(catalogue.production.get("solana")).to.be.instanceOf(SolanaRegistryClient);
    expect(catalogue.sandbox.get("base")).to.be.instanceOf(SimulatedEvmRegistry);
    expect(catalogue.sandbox.get("solana")).to.be.instanceOf(SimulatedSolanaRegistry);
    for (const [chain, client] of catalogue.production) {
      expect(client).to.include({ chain, simulated: false });
      expect(catalogue.sandbox.get(chain)).to.include({ chain, family: client.family, simulated: true });
    }
  });

  it("refuses a manifest that names one chain twice", () => {
    const solanaEntry = MANIFEST.solana[0] as DeploymentManifest["solana"][number];
    expect(() => registryCatalogue({ ...MANIFEST, solana: [{ ...solanaEntry, chain: "base" }] })).to.throw(
      'names chain "base" twice',
    );
  });
});
