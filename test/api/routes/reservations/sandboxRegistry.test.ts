// The sandbox never touches production, on real local chains: a sandbox prepare's transaction, signed by a
// funded wallet exactly as answered and sent to the chain, lands on the sandbox's own registry deployment and
// creates no reservation on the production registry (read from the registry itself, not the mirror).
import { Connection, Transaction } from "@solana/web3.js";
import { expect } from "chai";
import { createPublicClient, createWalletClient, defineChain, http } from "viem";
import { registryCatalogue } from "../../../../chains/catalogue";
import { EvmRegistryClient } from "../../../../chains/evm/registryClient";
import type { RegistryClient } from "../../../../chains/registryClient";
import { SolanaRegistryClient } from "../../../../chains/solana/registryClient";
import type { EvmManifestEntry, SolanaManifestEntry } from "../../../../config/manifest";
import { normalizeIdentity } from "../../../../core/fold";
import { devWallet, type Localnet, startLocalnet } from "../../../../scripts/localnet";
import { letWebsocketIdle } from "../../../scripts/localnet/rpcClient";
import { bearer, issueKey, startTestApi, TEST_HOSTS, type TestApi } from "../../support/harness";

const SANDBOX = TEST_HOSTS.sandbox[0];

interface Prepared {
  reservationId: string;
  simulated: boolean;
  transaction: { to?: string; data?: `0x${string}`; value?: string; tx?: string } | null;
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

  it("EVM: the signed and sent transaction reserves on the sandbox registry, not the production one", async () => {
    const account = devWallet("creator").evm;
    const prepared = await prepare(evm.chain, "Rehearsal Heron", "RHRN", account.address);
    const request = prepared.transaction as { to: `0x${string}`; data: `0x${string}`; value: string };
    const chain = defineChain({
      id: evm.chainId,
      name: evm.chain,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [evm.rpcUrl] } },
    });
    const wallet = createWalletClient({ account, chain, transport: http() });
    const hash = await wallet.sendTransaction({
      to: request.to,
      data: request.data,
      value: BigInt(request.value),
    });
    const receipt = await createPublicClient({ chain, transport: http() }).waitForTransactionReceipt({
      hash,
    });
    expect(receipt.to?.toLowerCase()).to.not.equal(evm.registry.toLowerCase());

    const production = new EvmRegistryClient(evm);
    const sandbox = new EvmRegistryClient({ ...evm, registry: evm.sandbox?.registry ?? evm.registry });
    const state = await held(production, sandbox, "Rehearsal Heron", "RHRN");
    expect(state.production, "no production reservation").to.equal(null);
    expect(await production.activeReservationCount(account.address)).to.equal(0);
    expect(receipt.status).to.equal("success");
    expect(state.sandbox, "the rehearsal landed on the sandbox registry").to.equal(true);
  });

  it("Solana: with a live blockhash set and signed, it reserves on the sandbox program, not the production one", async () => {
    await localnet.refreshPrices();
    const keypair = devWallet("creator").solana;
    const prepared = await prepare(solana.chain, "Rehearsal Crane", "RCRN", keypair.publicKey.toBase58());
    const connection = new Connection(solana.rpcUrl, { commitment: "confirmed", wsEndpoint: solana.wsUrl });
    const transaction = Transaction.from(Buffer.from(prepared.transaction?.tx as string, "base64"));
    // What the documentation tells a creator whose blockhash lapsed: set a live one and sign again.
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    transaction.recentBlockhash = blockhash;
    transaction.sign(keypair);
    const signature = await connection.sendRawTransaction(transaction.serialize());
    const confirmed = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    expect(confirmed.value.err).to.equal(null);

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
