// A generalized front-runner against a creator's reservation, on the local chains with real wallets. On the
// Hardhat node with automine off it copies each of the creator's pending transactions (calldata and value, the
// creator's address bytes swapped for its own, a higher priority fee) into the same block as the creator's. On the
// Solana RPC it copies the reveal and signs it itself, and tries a reveal in the commitment's own slot. Afterwards
// the chain, the public check and a signed validation all say the creator holds the pair (docs/commit-reveal.md).
import {
  ComputeBudgetProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  Transaction,
  TransactionInstruction,
} from "@solana/web3.js";
import { expect } from "chai";
import {
  type Account,
  createPublicClient,
  createWalletClient,
  type Hash,
  http,
  parseEther,
  parseGwei,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { EvmTransactionRequest, SolanaTransactionRequest } from "../../chains/registryClient";
import { normalizeIdentity } from "../../core/fold";
import { independentlyVerified, publishedKeys } from "../api/routes/identity/support";
import { viemChainOf } from "../support/localChains";
import { type E2e, partnerApi, prepared, startE2e, uniquePair, waitUntil } from "./support";

/** The program's errors as a preflight refusal names them (hex) or a landed transaction's status (decimal). */
const CODE = {
  CommitmentNotFound: /0x1788\b|"Custom":6024/,
  CommitmentTooNew: /0x1789\b|"Custom":6025/,
};

describe("e2e: a mempool front-runner cannot take a creator's reservation", function () {
  this.timeout(120_000);
  let e2e: E2e;
  let partner: ReturnType<typeof partnerApi>;

  before(async () => {
    e2e = await startE2e();
    partner = partnerApi(e2e);
  });
  after(async () => {
    await e2e?.stop();
  });

  /** The chain, the public check and a verified validation agree: `holder` holds the pair, `copier` is blocked. */
  async function creatorHolds(
    chain: string,
    pair: { name: string; ticker: string },
    holder: string,
    copier: string,
  ) {
    const registry = e2e.registries.production.get(chain);
    const onChain = await registry?.reservationOf(normalizeIdentity(pair.name, pair.ticker));
    expect(onChain?.active).to.equal(true);
    expect(onChain?.launcher.toLowerCase()).to.equal(holder.toLowerCase());

    const check = (await partner.check(chain, pair.name, pair.ticker)) as {
      status: string;
      authorizedLauncher?: string;
    };
    expect(check.status).to.equal("reserved");
    expect(String(check.authorizedLauncher).toLowerCase()).to.equal(holder.toLowerCase());

    const keys = await publishedKeys(e2e.api, "production");
    for (const [launcher, decision] of [
      [holder, "allow"],
      [copier, "block"],
    ] as const) {
      const response = await partner.validate({ chain, ...pair, launcher });
      expect(response.status, response.text).to.equal(200);
      expect(response.body).to.include({ decision });
      expect(independentlyVerified(response.body as Record<string, string>, keys)).to.equal(true);
    }
  }

  it("EVM, automine off: each copied transaction shares the creator's block at a higher fee, and loses", async () => {
    const { chain, test } = e2e.evm;
    const entry = e2e.localnet.manifest.evm[0];
    if (entry === undefined) throw new Error("no EVM chain");
    const viemChain = viemChainOf(entry);
    const publicClient = createPublicClient({ chain: viemChain, transport: http() });
    const creator = privateKeyToAccount(generatePrivateKey());
    const bot = privateKeyToAccount(generatePrivateKey());
    for (const account of [creator, bot])
      await test.setBalance({ address: account.address, value: parseEther("10") });
    const creatorBytes = creator.address.slice(2).toLowerCase();
    const botBytes = bot.address.slice(2).toLowerCase();

    const send = (
      account: Account,
      request: { to: `0x${string}`; data: `0x${string}`; value: bigint },
      tip: string,
    ) =>
      createWalletClient({ account, chain: viemChain, transport: http() }).sendTransaction({
        ...request,
        gas: 300_000n,
        maxPriorityFeePerGas: parseGwei(tip),
        maxFeePerGas: parseGwei("100"),
      });

    /** The creator sends; the bot reads it from the mempool and copies it; one block mines both. */
    async function raced(transaction: EvmTransactionRequest): Promise<{ creator: Hash; bot: Hash }> {
      const creatorHash = await send(
        creator,
        { to: transaction.to as `0x${string}`, data: transaction.data, value: BigInt(transaction.value) },
        "1",
      );
      const pending = await publicClient.getTransaction({ hash: creatorHash });
      const copied = pending.input.toLowerCase().replaceAll(creatorBytes, botBytes) as `0x${string}`;
      const botHash = await send(
        bot,
        { to: pending.to as `0x${string}`, data: copied, value: pending.value },
        "5",
      );
      await test.mine({ blocks: 1 });
      const [mine, theirs] = await Promise.all([
        publicClient.getTransactionReceipt({ hash: creatorHash }),
        publicClient.getTransactionReceipt({ hash: botHash }),
      ]);
      expect(mine.blockNumber, "same block").to.equal(theirs.blockNumber);
      expect(theirs.transactionIndex, "the copy is ordered first").to.be.below(mine.transactionIndex);
      return { creator: creatorHash, bot: botHash };
    }

    const pair = uniquePair("Sniped");
    const reservation = await prepared(partner, { chain, ...pair, launcher: creator.address });
    const reveal = reservation.reveal?.transaction as EvmTransactionRequest;
    await test.setAutomine(false);
    let revealHashes: { creator: Hash; bot: Hash };
    try {
      await raced(reservation.transaction as EvmTransactionRequest);
      revealHashes = await raced(reveal);
    } finally {
      await test.setAutomine(true);
    }
    expect((await publicClient.getTransactionReceipt({ hash: revealHashes.bot })).status).to.equal(
      "reverted",
    );
    expect((await publicClient.getTransactionReceipt({ hash: revealHashes.creator })).status).to.equal(
      "success",
    );

    expect((await partner.submit(reservation.reservationId, revealHashes.creator)).status).to.equal(200);
    await partner.statusBecomes(reservation.reservationId, "confirmed");
    await creatorHolds(chain, pair, creator.address, bot.address);
  });

  it("Solana: a reveal copied and signed by another wallet fails, so does one in its commitment's slot", async () => {
    const { chain } = e2e.solana;
    const entry = e2e.localnet.manifest.solana[0];
    if (entry === undefined) throw new Error("no Solana chain");
    const connection = new Connection(entry.rpcUrl, "confirmed");
    const creator = Keypair.generate();
    const bot = Keypair.generate();
    for (const wallet of [creator, bot])
      e2e.localnet.solana.chain.airdrop(wallet.publicKey.toBase58(), 10n * BigInt(LAMPORTS_PER_SOL));

    /** Signs and sends; the error the chain answered, or null once it confirmed (polled: no websocket here). */
    async function outcome(transaction: Transaction, signer: Keypair): Promise<string | null> {
      transaction.recentBlockhash = (await connection.getLatestBlockhash("confirmed")).blockhash;
      transaction.feePayer = signer.publicKey;
      transaction.signatures = [];
      transaction.sign(signer);
      let signature: string;
      try {
        signature = await connection.sendRawTransaction(transaction.serialize());
      } catch (error) {
        return (error as Error).message;
      }
      const status = await waitUntil(
        async () => (await connection.getSignatureStatuses([signature])).value[0],
        (value) => value?.confirmationStatus === "confirmed" || value?.confirmationStatus === "finalized",
        `Solana signature ${signature}`,
      );
      return status?.err ? JSON.stringify(status.err) : null;
    }
    const decode = (request: SolanaTransactionRequest) => Transaction.from(Buffer.from(request.tx, "base64"));
    /** The instructions of `request` with every creator account swapped for the bot's. */
    function copiedBy(request: SolanaTransactionRequest, copier: PublicKey): Transaction {
      const copy = new Transaction();
      for (const instruction of decode(request).instructions) {
        copy.add(
          new TransactionInstruction({
            programId: instruction.programId,
            data: instruction.data,
            keys: instruction.keys.map((key) =>
              key.pubkey.equals(creator.publicKey) ? { ...key, pubkey: copier } : key,
            ),
          }),
        );
      }
      return copy;
    }

    const pair = uniquePair("Leader");
    const reservation = await prepared(partner, { chain, ...pair, launcher: creator.publicKey.toBase58() });
    const commit = reservation.transaction as SolanaTransactionRequest;
    const reveal = reservation.reveal?.transaction as SolanaTransactionRequest;

    // Commit and reveal in one transaction: the reveal runs in its commitment's own slot.
    const programId = new PublicKey(entry.programId);
    const registryOnly = (request: SolanaTransactionRequest) =>
      decode(request).instructions.filter((instruction) => instruction.programId.equals(programId));
    const sameSlot = new Transaction().add(
      ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }),
      ...registryOnly(commit),
      ...registryOnly(reveal),
    );
    expect(await outcome(sameSlot, creator)).to.match(CODE.CommitmentTooNew);

    expect(await outcome(decode(commit), creator)).to.equal(null);
    // The bot copies the reveal and signs it itself: the program recomputes the commitment with the bot as launcher.
    expect(await outcome(copiedBy(reveal, bot.publicKey), bot)).to.match(CODE.CommitmentNotFound);

    const slot = await connection.getSlot("processed");
    while ((await connection.getSlot("processed")) <= slot)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await outcome(decode(reveal), creator)).to.equal(null);
    // Copied after the fact, the reveal still fails: the commitment was the creator's and is consumed.
    expect(await outcome(copiedBy(reveal, bot.publicKey), bot)).to.match(CODE.CommitmentNotFound);
    await partner.statusBecomes(reservation.reservationId, "confirmed");
    await creatorHolds(chain, pair, creator.publicKey.toBase58(), bot.publicKey.toBase58());
  });
});
