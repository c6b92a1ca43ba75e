// End to end over real sockets: the launcher's chains with both registries deployed, driven by stock
// clients: web3.js Connection + Anchor AnchorProvider on Solana, a viem wallet on the Hardhat node.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnchorError, AnchorProvider, Wallet } from "@coral-xyz/anchor";
import { Connection, PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import { createPublicClient, createWalletClient, defineChain, http, parseEventLogs } from "viem";
import { identityRegistryAbi } from "../../../contracts/abi/identityRegistry";
import { foldedHash, foldV1 } from "../../../core/fold";
import { devWallet, type Localnet, PortInUseError, startLocalnet } from "../../../scripts/localnet";
import { startHardhatNode } from "../../../scripts/localnet/evm/hardhatNode";
import { startSolanaRpc } from "../../../scripts/localnet/solana/server";
import {
  configAddress,
  loadProgramBytes,
  registryProgram,
  reservationAddress,
  TIER_DURATIONS,
} from "../../../scripts/solana/registry";
import {
  BPF_LOADER_UPGRADEABLE_ID,
  PROGRAM_DATA_METADATA_SIZE,
  programDataAddress,
} from "../../../scripts/solana/upgradeable-loader";
import {
  commitAndReveal,
  commitMethod,
  planReveal,
  revealMethod,
  waitForSlots,
} from "../../programs/support/commitReveal";
import { letWebsocketIdle } from "./rpcClient";

function portAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("localnet: both registries deployed, driven by stock clients", function () {
  this.timeout(120_000);
  let localnet: Localnet;
  let manifestPath: string;
  const logged: string[] = [];

  before(async () => {
    manifestPath = join(mkdtempSync(join(tmpdir(), "localnet-")), "local.json");
    localnet = await startLocalnet({
      evmPort: 0,
      solanaPort: 0,
      slotMs: 100,
      priceRefreshMs: 400,
      manifestPath,
      log: (line) => logged.push(line),
    });
  });

  after(async () => {
    await letWebsocketIdle();
    await localnet?.stop();
  });

  it("writes the manifest every part reads", () => {
    const written = JSON.parse(readFileSync(manifestPath, "utf8"));
    expect(written).to.deep.equal(localnet.manifest);
    const [evm] = localnet.manifest.evm;
    const [solana] = localnet.manifest.solana;
    expect(evm).to.include({ chain: "hardhat", chainId: 31337, rpcUrl: localnet.evm.rpcUrl });
    expect(evm?.registry).to.match(/^0x[0-9a-fA-F]{40}$/);
    expect(evm?.deployBlock).to.be.greaterThan(0);
    expect(solana).to.include({
      chain: "solana",
      rpcUrl: localnet.solana.rpcUrl,
      wsUrl: localnet.solana.wsUrl,
    });
    expect(solana?.configAccount).to.equal(
      configAddress(new PublicKey(solana?.programId as string)).toBase58(),
    );
    // The sandbox's own deployments: a second registry and a second program, never the production ones.
    expect(evm?.sandbox?.registry).to.match(/^0x[0-9a-fA-F]{40}$/);
    expect(evm?.sandbox?.registry.toLowerCase()).to.not.equal(evm?.registry.toLowerCase());
    expect(solana?.sandbox?.programId).to.not.equal(solana?.programId);
    expect(solana?.sandbox?.configAccount).to.equal(
      configAddress(new PublicKey(solana?.sandbox?.programId as string)).toBase58(),
    );
  });

  describe("Solana: web3.js Connection + AnchorProvider through the program", () => {
    const creator = devWallet("creator").solana;
    const launcher = devWallet("launcher").solana;
    let connection: Connection;
    let programId: PublicKey;
    let priceAccount: PublicKey;

    before(() => {
      const [solana] = localnet.manifest.solana;
      connection = new Connection(solana?.rpcUrl as string, {
        commitment: "confirmed",
        wsEndpoint: solana?.wsUrl,
      });
      programId = new PublicKey(solana?.programId as string);
      priceAccount = new PublicKey(solana?.priceAccount as string);
    });

    const programFor = (wallet: typeof creator) =>
      registryProgram(
        new AnchorProvider(connection, new Wallet(wallet), { commitment: "confirmed" }),
        programId,
      );
    const reservationOf = (name: string, ticker: string) =>
      reservationAddress(programId, foldedHash(foldV1(name)), foldedHash(foldV1(ticker)));
    /** Commit, wait a slot, reveal, as a stock Anchor client does; resolves with the reveal's signature. */
    const reserve = (wallet: typeof creator, name: string, ticker: string) =>
      commitAndReveal(
        programFor(wallet),
        wallet,
        priceAccount,
        { name, ticker, durationSeconds: TIER_DURATIONS[0] },
        () => waitForSlots(connection),
      );
    /** A committed reveal, not yet sent: the refusal tests send it themselves. */
    const committedReveal = async (wallet: typeof creator, name: string, ticker: string) => {
      const program = programFor(wallet);
      const plan = planReveal(programId, wallet.publicKey, priceAccount, {
        name,
        ticker,
        durationSeconds: TIER_DURATIONS[0],
      });
      await commitMethod(program, plan).rpc();
      await waitForSlots(connection);
      return revealMethod(program, plan);
    };

    it("loads the program as the upgradeable loader deploys it, the deployer its upgrade authority (what initialize checks)", async () => {
      const account = await connection.getAccountInfo(programId);
      expect(account?.executable).to.equal(true);
      expect(account?.owner.equals(BPF_LOADER_UPGRADEABLE_ID)).to.equal(true);
      expect(account?.data.subarray(4, 36).equals(programDataAddress(programId).toBuffer())).to.equal(true);
      const programData = await connection.getAccountInfo(programDataAddress(programId));
      const { deploySlot } = localnet.manifest.solana[0] as { deploySlot: number };
      expect(programData?.data.readUInt32LE(0), "ProgramData tag").to.equal(3);
      expect(Number(programData?.data.readBigUInt64LE(4))).to.equal(deploySlot);
      const authority = programData?.data.subarray(13, PROGRAM_DATA_METADATA_SIZE);
      expect(authority?.equals(devWallet("deployer").solana.publicKey.toBuffer())).to.equal(true);
      const bytes = loadProgramBytes();
      const code = programData?.data.subarray(
        PROGRAM_DATA_METADATA_SIZE,
        PROGRAM_DATA_METADATA_SIZE + bytes.length,
      );
      expect(code?.equals(bytes)).to.equal(true);
    });

    it("reserves a pair and finds it again by account, history and logs", async () => {
      const program = programFor(creator);
      const signature = await reserve(creator, "Local Fox", "lfox");
      const keys = { reservation: reservationOf("Local Fox", "lfox") };
      const reservation = await program.account.reservation.fetch(keys.reservation);
      expect(reservation.name).to.equal("LOCALFOX");
      expect(reservation.launcher.toBase58()).to.equal(creator.publicKey.toBase58());

      const all = await program.account.reservation.all();
      expect(all.map((entry) => entry.publicKey.toBase58())).to.include(keys.reservation.toBase58());
      const history = await connection.getSignaturesForAddress(programId, { limit: 10 });
      expect(history.map((entry) => entry.signature)).to.include(signature);
      const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
      expect(landed?.meta?.err).to.equal(null);
      expect(landed?.meta?.logMessages?.some((line) => line.startsWith("Program data: "))).to.equal(true);
    });

    it("delivers the program's events to an Anchor event listener over the websocket", async () => {
      const program = programFor(creator);
      const event = new Promise<Record<string, unknown>>((resolve) => {
        const id = program.addEventListener("reservationCreated", (data) => {
          void program.removeEventListener(id);
          resolve(data as Record<string, unknown>);
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 200)); // let the subscription reach the node
      await reserve(creator, "Event Owl", "OWL");
      const data = await event;
      expect(data.name).to.equal("EVENTOWL");
      expect((data.launcher as PublicKey).toBase58()).to.equal(creator.publicKey.toBase58());
    });

    it("refuses a taken pair at preflight with an AnchorError decoded from the logs", async () => {
      const error = await (await committedReveal(launcher, "Local  fox!", "LFOX"))
        .rpc()
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(AnchorError);
      expect((error as AnchorError).error.errorCode.code).to.equal("AlreadyReserved");
    });

    it("lands the same refusal without preflight, with meta.err carrying the program error", async () => {
      const tx = await (await committedReveal(launcher, "Local Fox", "LFOX")).transaction();
      const latest = await connection.getLatestBlockhash();
      tx.recentBlockhash = latest.blockhash;
      tx.feePayer = launcher.publicKey;
      tx.sign(launcher);
      const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
      const confirmation = await connection.confirmTransaction({ signature, ...latest });
      expect(confirmation.value.err).to.deep.equal({ InstructionError: [0, { Custom: 6006 }] });
      const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
      expect(landed?.meta?.err).to.deep.equal({ InstructionError: [0, { Custom: 6006 }] });
      expect(landed?.meta?.logMessages?.join("\n")).to.contain("AlreadyReserved");
    });

    it("republishes the local price on its own", async () => {
      const pushes = async () => (await connection.getSignaturesForAddress(priceAccount)).length;
      const before = await pushes();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await pushes()).to.be.greaterThan(before);
    });

    it("holds the price while asked, so a test can let it go stale, and republishes after refreshPrices", async () => {
      const pushes = async () => (await connection.getSignaturesForAddress(priceAccount)).length;
      const pause = () => new Promise((resolve) => setTimeout(resolve, 1_500));
      await localnet.holdPrices();
      const held = await pushes();
      await pause(); // over three refresh intervals
      expect(await pushes(), "pushes while held").to.equal(held);
      await localnet.refreshPrices();
      const refreshed = await pushes();
      expect(refreshed).to.be.greaterThan(held);
      await pause();
      expect(await pushes(), "pushes on its own again").to.be.greaterThan(refreshed);
    });

    it("keeps the local price fresh enough to reserve after chain time moves", async () => {
      localnet.solana.chain.warpTime(120);
      await localnet.refreshPrices();
      // A second refresh in the same block time pushes an identical transaction: it must not fail.
      await localnet.refreshPrices();
      await reserve(launcher, "After Warp", "WARP");
      const reservation = await programFor(launcher).account.reservation.fetch(
        reservationOf("After Warp", "WARP"),
      );
      expect(reservation.reservedAt.toNumber()).to.be.at.least(localnet.solana.chain.now() - 5);
    });
  });

  describe("EVM: a viem wallet through the contract", () => {
    it("quotes and reserves a pair, and the registry reports it held", async () => {
      const [evm] = localnet.manifest.evm;
      const chain = defineChain({
        id: evm?.chainId as number,
        name: "hardhat",
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [evm?.rpcUrl as string] } },
      });
      const account = devWallet("creator").evm;
      const publicClient = createPublicClient({ chain, transport: http() });
      const walletClient = createWalletClient({ account, chain, transport: http() });
      const registry = evm?.registry as `0x${string}`;
      const fee = await publicClient.readContract({
        address: registry,
        abi: identityRegistryAbi,
        functionName: "quote",
        args: [TIER_DURATIONS[0]],
      });
      // Commit, then reveal: the commitment is the registry's own makeCommitment of the same arguments.
      const noPartner = `0x${"00".repeat(32)}` as const;
      const secret = `0x${randomBytes(32).toString("hex")}` as const;
      const commitment = await publicClient.readContract({
        address: registry,
        abi: identityRegistryAbi,
        functionName: "makeCommitment",
        args: ["Local Fox", "lfox", account.address, TIER_DURATIONS[0], noPartner, secret],
      });
      const committed = await walletClient.writeContract({
        address: registry,
        abi: identityRegistryAbi,
        functionName: "commit",
        args: [commitment],
      });
      await publicClient.waitForTransactionReceipt({ hash: committed });
      const hash = await walletClient.writeContract({
        address: registry,
        abi: identityRegistryAbi,
        functionName: "reserve",
        args: ["Local Fox", "lfox", TIER_DURATIONS[0], noPartner, secret],
        value: fee,
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).to.equal("success");
      expect(Number(receipt.blockNumber)).to.be.greaterThan(evm?.deployBlock as number);
      const [nameHash, tickerHash] = await publicClient.readContract({
        address: registry,
        abi: identityRegistryAbi,
        functionName: "identityHashes",
        args: ["Local Fox", "lfox"],
      });
      expect(nameHash).to.equal(foldedHash("LOCALFOX"));
      const [holder, , active] = await publicClient.readContract({
        address: registry,
        abi: identityRegistryAbi,
        functionName: "reservationOf",
        args: [nameHash, tickerHash],
      });
      expect(holder).to.equal(account.address);
      expect(active).to.equal(true);
      expect(parseEventLogs({ abi: identityRegistryAbi, logs: receipt.logs }).length).to.be.greaterThan(0);
    });
  });

  describe("shutdown", () => {
    it("reports a Hardhat node that dies while the chains run", async () => {
      process.kill(localnet.evm.pid, "SIGKILL");
      await localnet.evm.exited;
      expect(logged.join("\n")).to.contain("The Hardhat node stopped unexpectedly");
    });

    it("stops both chains: nothing answers on their ports afterwards", async () => {
      await letWebsocketIdle();
      await localnet.stop();
      expect(await portAnswers(localnet.solana.rpcUrl)).to.equal(false);
      expect(await portAnswers(localnet.solana.wsUrl.replace("ws:", "http:"))).to.equal(false);
      expect(await portAnswers(localnet.evm.rpcUrl)).to.equal(false);
      expect(() => process.kill(localnet.evm.pid, 0)).to.throw();
    });
  });
});

describe("localnet: a taken port", () => {
  let blocker: ReturnType<typeof createServer>;
  let port: number;

  before(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    port = (blocker.address() as { port: number }).port;
  });

  after(() => blocker.close());

  it("names the port and the setting to change for the Solana RPC", async () => {
    const error = await startSolanaRpc({ port }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(PortInUseError);
    expect((error as Error).message)
      .to.contain(`Port ${port} (Solana RPC)`)
      .and.to.contain("--solana-port");
  });

  it("names the websocket port setting when only that port is taken", async () => {
    const error = await startSolanaRpc({ port: 0, wsPort: port }).catch((e: unknown) => e);
    expect((error as Error).message)
      .to.contain(`Port ${port} (Solana websocket)`)
      .and.to.contain("--solana-ws-port");
  });

  it("names the port and the setting to change for the Hardhat node, before spawning it", async () => {
    const error = await startHardhatNode({ port }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(PortInUseError);
    expect((error as Error).message)
      .to.contain(`Port ${port} (Hardhat node)`)
      .and.to.contain("--evm-port");
  });
});
