// The deploy library and the Anchor client over JSON-RPC (the project's local Solana RPC): the same code
// paths a real cluster uses, with a stock web3.js Connection and AnchorProvider.
import { AnchorError, AnchorProvider, Wallet } from "@coral-xyz/anchor";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import { foldedHash } from "../../core/fold";
import { type SolanaRpc, startSolanaRpc } from "../../scripts/localnet/solana/server";
import { deployIdentityRegistry, type RegistryDeployment } from "../../scripts/solana/deploy";
import { configAddress, registryProgram, reservationAddress } from "../../scripts/solana/registry";
import { BPF_LOADER_UPGRADEABLE_ID } from "../../scripts/solana/upgradeable-loader";
import { letWebsocketIdle } from "../scripts/localnet/rpcClient";
import { commitAndReveal, waitForSlots } from "./support/commitReveal";

/** The project's local Solana RPC (50 ms slots) with the registry deployed by a funded deployer. */
async function registryOverRpc(): Promise<{
  rpc: SolanaRpc;
  provider: AnchorProvider;
  deployment: RegistryDeployment;
}> {
  const rpc = await startSolanaRpc({ port: 0, slotMs: 50 });
  const deployer = Keypair.generate();
  rpc.chain.airdrop(deployer.publicKey.toBase58(), 100n * BigInt(LAMPORTS_PER_SOL));
  const connection = new Connection(rpc.rpcUrl, { commitment: "confirmed", wsEndpoint: rpc.wsUrl });
  const provider = new AnchorProvider(connection, new Wallet(deployer), { commitment: "confirmed" });
  return { rpc, provider, deployment: await deployIdentityRegistry(provider) };
}

describe("program: deploy over JSON-RPC", () => {
  let rpc: SolanaRpc;
  let provider: AnchorProvider;
  let deployment: RegistryDeployment;

  before(async () => {
    ({ rpc, provider, deployment } = await registryOverRpc());
  });

  after(async () => {
    await letWebsocketIdle();
    await rpc?.stop();
  });

  it("returns the manifest fields: an executable upgradeable program, its config and price accounts, the deploy slot", async () => {
    const programId = new PublicKey(deployment.programId);
    const program = await provider.connection.getAccountInfo(programId);
    expect(program?.executable).to.equal(true);
    expect(program?.owner.toBase58()).to.equal(BPF_LOADER_UPGRADEABLE_ID.toBase58());
    expect(deployment.configAccount).to.equal(configAddress(programId).toBase58());
    const price = await provider.connection.getAccountInfo(new PublicKey(deployment.priceAccount));
    expect(price?.owner.toBase58()).to.equal(deployment.programId);
    expect(deployment.deploySlot)
      .to.be.a("number")
      .and.to.be.at.most(await provider.connection.getSlot());
  });

  it("serves the Anchor client: a view and a decoded custom error over RPC", async () => {
    const program = registryProgram(provider, deployment.programId);
    const preview = await program.methods.foldPreview("Pepe 2.0", "$pepe").view();
    expect([preview.name, preview.ticker]).to.deep.equal(["PEPE2O", "SPEPE"]);
    // AnchorProvider.simulate throws a SimulateError carrying the logs; Anchor's parser decodes them.
    const failure = await program.methods
      .foldPreview("!!", "$pepe")
      .view()
      .then(
        () => expect.fail("fold_preview of an empty name succeeded"),
        (error: { simulationResponse?: { logs?: string[] } }) => error,
      );
    const decoded = AnchorError.parse(failure.simulationResponse?.logs ?? []);
    expect(decoded?.error.errorCode).to.deep.equal({ code: "BadLength", number: 6000 });
  });
});

describe("program: commit and reveal over JSON-RPC", () => {
  let rpc: SolanaRpc;
  let provider: AnchorProvider;
  let deployment: RegistryDeployment;

  before(async () => {
    ({ rpc, provider, deployment } = await registryOverRpc());
  });

  after(async () => {
    await letWebsocketIdle();
    await rpc?.stop();
  });

  it("reveals once the cluster has moved past the commitment's slot (commitAndReveal with waitForSlots)", async () => {
    const launcher = Keypair.generate();
    rpc.chain.airdrop(launcher.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));
    const program = registryProgram(provider, deployment.programId);
    await commitAndReveal(
      program,
      launcher,
      new PublicKey(deployment.priceAccount),
      { name: "Rpc Cat", ticker: "RCAT", durationSeconds: 86_400 },
      () => waitForSlots(provider.connection),
    );
    const reservation = await program.account.reservation.fetch(
      reservationAddress(program.programId, foldedHash("RPCCAT"), foldedHash("RCAT")),
    );
    expect(reservation.launcher.toBase58()).to.equal(launcher.publicKey.toBase58());
  });
});
