// The sandbox never touches production, on real local chains: a sandbox prepare's transactions (the commitment, then
// the reveal), signed by a funded wallet exactly as answered and sent to the chain, land on the sandbox's own
// registry deployment and create no reservation on the production registry (read from the registry itself, not the
// mirror).
import { Connection, type Keypair, Transaction } from "@solana/web3.js";
import { expect } from "chai";
import { createPublicClient, createWalletClient, type Hash, http } from "viem";
import { registryCatalogue } from "../../../../chains/catalogue";
import { EvmRegistryClient } from "../../../../chains/evm/registryClient";
import type { RegistryClient } from "../../../../chains/registryClient";
import { SolanaRegistryClient } from "../../../../chains/solana/registryClient";
import type { EvmManifestEntry, SolanaManifestEntry } from "../../../../config/manifest";
import { normalizeIdentity } from "../../../../core/fold";
import { devWallet, type Localnet, startLocalnet } from "../../../../scripts/localnet";
import { letWebsocketIdle } from "../../../scripts/localnet/rpcClient";
import { viemChainOf } from "../../../support/localChains";
import { bearer, issueKey, startTestApi, TEST_HOSTS, type TestApi } from "../../support/harness";

const SANDBOX = TEST_HOSTS.sandbox[0];

interface PreparedStep {
  to?: string;
  data?: `0x${string}`;
  value?: string;
  tx?: string;
}

interface Prepared {
  reservationId: string;
  simulated: boolean;
  /** The commitment (a new reservation's first step). */
  transaction: PreparedStep | null;
  reveal: { transaction: PreparedStep } | null;
}

/**
 * What a creator's wallet does with a prepare of a new reservation: send the commitment, wait until `send` says the
 * registry accepts its reveal, send the reveal. Resolves with both hashes.
 */
async function payBoth<T>(
  prepared: Prepared,
  send: (step: PreparedStep) => Promise<T>,
  afterCommit: (commit: T) => Promise<void>,
): Promise<{ commit: T; reveal: T }> {
  if (prepared.transaction === null || prepared.reveal === null)
    throw new Error("expected a commit and a reveal");
  const commit = await send(prepared.transaction);
  await afterCommit(commit);
  return { commit, reveal: await send(prepared.reveal.transaction) };
}

describe("api: a sandbox prepare's transaction never lands on a production registry (local chains)", function () {
  this.timeout(180_000);
  let localnet: Localnet;
  let api: TestApi;
  let secret: string;
  let evm: EvmManifestEntry;
  let solana: SolanaManifestEntry;

  before(async () => {
    localnet = await startLocalnet({ evmPort: 0, solanaPort: 0, slotMs: 100, manifestPath: null });
    evm = localnet.manifest.evm[0] as EvmManifestEntry;
    solana = localnet.manifest.solana[0] as SolanaManifestEntry;
    api = await startTestApi({
      deps: {
        registries: registryCatalogue(localnet.manifest),
        decisions: {
          chains: [
            { chain: evm.chain, family: "evm" },
            { chain: solana.chain, family: "solana" },
          ],
        },
      },
    });
    secret = (await issueKey(api, "sandbox")).secret;
  });
  after(async () => {
    await api?.close();
    await letWebsocketIdle();
    await localnet?.stop();
  });

  const prepare = async (chain: string, name: string, ticker: string, launcher: string) => {
    const response = await api.call({
      method: "POST",
      path: "/api/v1/reservations/prepare",
      host: SANDBOX,
      headers: bearer(secret),
      body: { chain, name, ticker, launcher, durationSeconds: 86400 },
    });
    expect(response.status, response.text).to.equal(201);
    const body = response.body as Prepared;
    expect(body.simulated).to.equal(true);
    expect(body.transaction, "a sandbox transaction").to.not.equal(null);
    expect(body.reveal, "a sandbox reveal").to.not.equal(null);
    return body;
  };
  /** Both registries of a chain, read over RPC: the production one and the sandbox's own deployment. */
  const held = async (production: RegistryClient, sandbox: RegistryClient, name: string, ticker: string) => {
    const identity = normalizeIdentity(name, ticker);
    return {
      production: await production.reservationOf(identity),
      sandbox: (await sandbox.reservationOf(identity))?.active ?? false,
    };
  };

  it("EVM: the signed and sent transactions reserve on the sandbox registry, not the production one", async () => {
    const account = devWallet("creator").evm;
    const prepared = await prepare(evm.chain, "Rehearsal Heron", "RHRN", account.address);
    const chain = viemChainOf(evm);
    const wallet = createWalletClient({ account, chain, transport: http() });
    const publicClient = createPublicClient({ chain, transport: http() });
    const send = async (step: PreparedStep) => {
      const hash = await wallet.sendTransaction({
        to: step.to as `0x${string}`,
        data: step.data,
        value: BigInt(step.value ?? "0"),
      });
      return publicClient.waitForTransactionReceipt({ hash: hash as Hash });
    };
    // The reveal needs no wait: the next block is stamped at least the local registry's one-second minimum later.
    const { commit, reveal: receipt } = await payBoth(prepared, send, async () => undefined);
    for (const landed of [commit, receipt]) {
      expect(landed.to?.toLowerCase()).to.not.equal(evm.registry.toLowerCase());
      expect(landed.to?.toLowerCase()).to.equal(evm.sandbox?.registry.toLowerCase());
    }
    expect(commit.status).to.equal("success");

    const production = new EvmRegistryClient(evm);
    const sandbox = new EvmRegistryClient({ ...evm, registry: evm.sandbox?.registry ?? evm.registry });
    const state = await held(production, sandbox, "Rehearsal Heron", "RHRN");
    expect(state.production, "no production reservation").to.equal(null);
    expect(await production.activeReservationCount(account.address)).to.equal(0);
    expect(receipt.status).to.equal("success");
    expect(state.sandbox, "the rehearsal landed on the sandbox registry").to.equal(true);
  });

  it("Solana: with a live blockhash set and signed, they reserve on the sandbox program, not the production one", async () => {
    await localnet.refreshPrices();
    const keypair = devWallet("creator").solana;
    const prepared = await prepare(solana.chain, "Rehearsal Crane", "RCRN", keypair.publicKey.toBase58());
    const connection = new Connection(solana.rpcUrl, { commitment: "confirmed", wsEndpoint: solana.wsUrl });
    const send = (step: PreparedStep) => sendWithLiveBlockhash(connection, keypair, step);
    // The reveal goes in a slot after the commitment's: the local program's one-slot minimum age.
    await payBoth(prepared, send, async ({ slot }) => {
      const deadline = Date.now() + 10_000;
      while ((await connection.getSlot("processed")) <= slot) {
        if (Date.now() > deadline) throw new Error(`the cluster did not pass slot ${slot}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });

    const production = new SolanaRegistryClient(solana);
    const sandbox = new SolanaRegistryClient({
      ...solana,
      programId: solana.sandbox?.programId ?? solana.programId,
      configAccount: solana.sandbox?.configAccount ?? solana.configAccount,
      priceAccount: solana.sandbox?.priceAccount ?? solana.priceAccount,
    });
    const state = await held(production, sandbox, "Rehearsal Crane", "RCRN");
    expect(state.production, "no production reservation").to.equal(null);
    expect(state.sandbox, "the rehearsal landed on the sandbox program").to.equal(true);
  });
});

/**
 * What the documentation tells a creator whose blockhash lapsed (a sandbox one never was live): set a live one,
 * sign again, send. Resolves once confirmed, with the slot it landed in.
 */
async function sendWithLiveBlockhash(
  connection: Connection,
  keypair: Keypair,
  step: PreparedStep,
): Promise<{ signature: string; slot: number }> {
  const transaction = Transaction.from(Buffer.from(step.tx as string, "base64"));
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  transaction.recentBlockhash = blockhash;
  transaction.sign(keypair);
  const signature = await connection.sendRawTransaction(transaction.serialize());
  const confirmed = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
  expect(confirmed.value.err).to.equal(null);
  const [status] = (await connection.getSignatureStatuses([signature])).value;
  return { signature, slot: status?.slot ?? confirmed.context.slot };
}
