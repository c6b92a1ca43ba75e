import { AnchorProvider, Wallet } from "@coral-xyz/anchor";
import {
  AddressLookupTableProgram,
  ComputeBudgetProgram,
  type Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { expect } from "chai";
import { type SolanaRpc, startSolanaRpc } from "../../../scripts/localnet/solana/server";
import { connect, letWebsocketIdle, rawRpc, rpcResult } from "./rpcClient";

const TOKEN_PROGRAM = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const MINT_SIZE = 82;

async function fundedWallet(connection: Connection, sol = 10): Promise<Keypair> {
  const wallet = Keypair.generate();
  const signature = await connection.requestAirdrop(wallet.publicKey, sol * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  return wallet;
}

function transfer(from: Keypair, to: PublicKey, lamports: number): Transaction {
  return new Transaction().add(
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports }),
  );
}

/** Creates an SPL Token mint (a real program litesvm ships) whose authority sits at byte offset 4. */
async function createMint(connection: Connection, payer: Keypair, authority: PublicKey): Promise<PublicKey> {
  const mint = Keypair.generate();
  const initializeMint2 = Buffer.concat([
    Buffer.from([20, 6]),
    authority.toBuffer(),
    Buffer.from([0]),
    Buffer.alloc(32),
  ]);
  const tx = new Transaction().add(
    SystemProgram.createAccount({
      fromPubkey: payer.publicKey,
      newAccountPubkey: mint.publicKey,
      lamports: await connection.getMinimumBalanceForRentExemption(MINT_SIZE),
      space: MINT_SIZE,
      programId: TOKEN_PROGRAM,
    }),
    new TransactionInstruction({
      programId: TOKEN_PROGRAM,
      keys: [{ pubkey: mint.publicKey, isSigner: false, isWritable: true }],
      data: initializeMint2,
    }),
  );
  await sendAndConfirmTransaction(connection, tx, [payer, mint]);
  return mint.publicKey;
}

describe("localnet Solana RPC with stock clients", () => {
  let rpc: SolanaRpc;
  let connection: Connection;

  before(async () => {
    rpc = await startSolanaRpc({ port: 0, slotMs: 100 });
    connection = connect(rpc);
  });

  after(async () => {
    await letWebsocketIdle();
    await rpc.stop();
  });

  it("confirms an airdrop and a transfer through web3.js Connection over HTTP and websocket", async () => {
    const alice = await fundedWallet(connection, 2);
    const bob = Keypair.generate();
    expect(await connection.getBalance(alice.publicKey)).to.equal(2 * LAMPORTS_PER_SOL);

    const signature = await sendAndConfirmTransaction(
      connection,
      transfer(alice, bob.publicKey, LAMPORTS_PER_SOL),
      [alice],
    );
    expect(await connection.getBalance(bob.publicKey)).to.equal(LAMPORTS_PER_SOL);

    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed?.meta?.err).to.equal(null);
    expect(landed?.meta?.fee).to.equal(5000);
    expect(landed?.meta?.preBalances.slice(0, 2)).to.deep.equal([2 * LAMPORTS_PER_SOL, 0]);
    expect(landed?.meta?.postBalances.slice(0, 2)).to.deep.equal([LAMPORTS_PER_SOL - 5000, LAMPORTS_PER_SOL]);
    expect(landed?.version).to.equal("legacy");
    expect(landed?.blockTime).to.equal(await connection.getBlockTime(landed?.slot as number));
  });

  it("sends through Anchor's AnchorProvider", async () => {
    const payer = await fundedWallet(connection);
    const provider = new AnchorProvider(connection, new Wallet(payer), { commitment: "confirmed" });
    const recipient = Keypair.generate().publicKey;
    const signature = await provider.sendAndConfirm(transfer(payer, recipient, 1_000_000));
    expect(await connection.getBalance(recipient)).to.equal(1_000_000);
    const status = await connection.getSignatureStatus(signature);
    expect(status.value?.confirmationStatus).to.equal("finalized");
  });

  it("simulates without landing, showing the requested accounts after the transaction", async () => {
    const alice = await fundedWallet(connection, 2);
    const bob = Keypair.generate().publicKey;
    const untouched = Keypair.generate().publicKey;
    const message = new TransactionMessage({
      payerKey: alice.publicKey,
      recentBlockhash: (await connection.getLatestBlockhash()).blockhash,
      instructions: transfer(alice, bob, 700_000_000).instructions,
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([alice]);
    const simulated = await connection.simulateTransaction(tx, {
      sigVerify: true,
      accounts: { addresses: [bob.toBase58(), untouched.toBase58()], encoding: "base64" },
    });
    expect(simulated.value.err).to.equal(null);
    expect(simulated.value.logs).to.include("Program 11111111111111111111111111111111 success");
    expect(simulated.value.accounts?.[0]?.lamports).to.equal(700_000_000);
    expect(simulated.value.accounts?.[1]).to.equal(null);
    expect(await connection.getBalance(bob)).to.equal(0, "a simulation changes nothing");
  });

  it("rejects a failing transaction at preflight with -32002 and the program logs", async () => {
    const poor = await fundedWallet(connection, 1);
    const tx = transfer(poor, Keypair.generate().publicKey, 5 * LAMPORTS_PER_SOL);
    tx.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
    tx.feePayer = poor.publicKey;
    tx.sign(poor);
    const reply = await rawRpc(rpc.rpcUrl, "sendTransaction", [
      tx.serialize().toString("base64"),
      { encoding: "base64" },
    ]);
    expect(reply.body.error?.code).to.equal(-32002);
    expect(reply.body.error?.message).to.equal(
      "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1",
    );
    expect(reply.body.error?.data?.err).to.deep.equal({ InstructionError: [0, { Custom: 1 }] });
    expect(reply.body.error?.data?.logs).to.include(
      "Program 11111111111111111111111111111111 failed: custom program error: 0x1",
    );

    const error = await sendAndConfirmTransaction(connection, tx, [poor]).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(SendTransactionError);
    expect((error as SendTransactionError).logs?.join("\n")).to.contain("insufficient lamports");
    expect(await connection.getBalance(poor.publicKey)).to.equal(
      LAMPORTS_PER_SOL,
      "a preflight failure charges no fee",
    );
  });

  it("lands a failing transaction sent without preflight, with meta.err and the fee charged", async () => {
    const poor = await fundedWallet(connection, 1);
    const tx = transfer(poor, Keypair.generate().publicKey, 5 * LAMPORTS_PER_SOL);
    const latest = await connection.getLatestBlockhash();
    tx.recentBlockhash = latest.blockhash;
    tx.feePayer = poor.publicKey;
    tx.sign(poor);
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const confirmation = await connection.confirmTransaction({ signature, ...latest });
    expect(confirmation.value.err).to.deep.equal({ InstructionError: [0, { Custom: 1 }] });

    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed?.meta?.err).to.deep.equal({ InstructionError: [0, { Custom: 1 }] });
    expect(landed?.meta?.logMessages?.at(-1)).to.equal(
      "Program 11111111111111111111111111111111 failed: custom program error: 0x1",
    );
    expect(await connection.getBalance(poor.publicKey)).to.equal(LAMPORTS_PER_SOL - 5000);
    const [listed] = await connection.getSignaturesForAddress(poor.publicKey, { limit: 1 });
    expect(listed?.signature).to.equal(signature);
    expect(listed?.err).to.deep.equal({ InstructionError: [0, { Custom: 1 }] });
  });

  it("rejects a bad signature with -32003 even without preflight", async () => {
    const alice = await fundedWallet(connection, 1);
    const tx = transfer(alice, Keypair.generate().publicKey, 1000);
    tx.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
    tx.feePayer = alice.publicKey;
    tx.sign(alice);
    const wire = tx.serialize();
    wire[10] = (wire[10] as number) ^ 0xff;
    const reply = await rawRpc(rpc.rpcUrl, "sendTransaction", [
      Buffer.from(wire).toString("base64"),
      { encoding: "base64", skipPreflight: true },
    ]);
    expect(reply.body.error?.code).to.equal(-32003);
  });

  it("rejects a replayed transaction as AlreadyProcessed", async () => {
    const alice = await fundedWallet(connection);
    const tx = transfer(alice, Keypair.generate().publicKey, LAMPORTS_PER_SOL);
    await sendAndConfirmTransaction(connection, tx, [alice]);
    const reply = await rawRpc(rpc.rpcUrl, "sendTransaction", [
      tx.serialize().toString("base64"),
      { encoding: "base64" },
    ]);
    expect(reply.body.error?.data?.err).to.equal("AlreadyProcessed");
  });

  it("pages getSignaturesForAddress newest first with exclusive before/until", async () => {
    const alice = await fundedWallet(connection);
    const bob = Keypair.generate().publicKey;
    const sent: string[] = [];
    for (let i = 1; i <= 7; i++)
      sent.push(await sendAndConfirmTransaction(connection, transfer(alice, bob, i * 1_000_000), [alice]));
    const newestFirst = [...sent].reverse();

    const pages: string[][] = [];
    let before: string | undefined;
    for (;;) {
      const page = await connection.getSignaturesForAddress(bob, { limit: 3, before });
      if (page.length === 0) break;
      pages.push(page.map((entry) => entry.signature));
      before = page.at(-1)?.signature;
    }
    expect(pages.map((page) => page.length)).to.deep.equal([3, 3, 1]);
    expect(pages.flat()).to.deep.equal(newestFirst);

    const between = await connection.getSignaturesForAddress(bob, { before: sent[5], until: sent[1] });
    expect(between.map((entry) => entry.signature)).to.deep.equal([sent[4], sent[3], sent[2]]);
    const slots = (await connection.getSignaturesForAddress(bob)).map((entry) => entry.slot);
    expect(slots).to.deep.equal([...slots].sort((a, b) => b - a));

    const tooMany = await rawRpc(rpc.rpcUrl, "getSignaturesForAddress", [bob.toBase58(), { limit: 1001 }]);
    expect(tooMany.body.error?.code).to.equal(-32602);
    const processed = await rawRpc(rpc.rpcUrl, "getSignaturesForAddress", [
      bob.toBase58(),
      { commitment: "processed" },
    ]);
    expect(processed.body.error?.message).to.contain("commitment below `confirmed`");
  });

  it("answers -32015 for a v0 transaction unless maxSupportedTransactionVersion is given", async () => {
    const alice = await fundedWallet(connection);
    const message = new TransactionMessage({
      payerKey: alice.publicKey,
      recentBlockhash: (await connection.getLatestBlockhash()).blockhash,
      instructions: transfer(alice, Keypair.generate().publicKey, 1_000_000).instructions,
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([alice]);
    const signature = await connection.sendTransaction(tx);
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });

    const legacyClient = await rawRpc(rpc.rpcUrl, "getTransaction", [signature, { commitment: "confirmed" }]);
    expect(legacyClient.body.error?.code).to.equal(-32015);
    expect(legacyClient.body.error?.message).to.contain('"maxSupportedTransactionVersion": 0');
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed?.version).to.equal(0);
    expect(landed?.transaction.message.staticAccountKeys[0]?.toBase58()).to.equal(alice.publicKey.toBase58());
  });

  it("resolves address lookup tables in v0 transactions (loadedAddresses, lookupTable keys)", async () => {
    const alice = await fundedWallet(connection);
    const recipients = [Keypair.generate().publicKey, Keypair.generate().publicKey];
    const [create, table] = AddressLookupTableProgram.createLookupTable({
      authority: alice.publicKey,
      payer: alice.publicKey,
      recentSlot: await connection.getSlot("finalized"),
    });
    const extend = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority: alice.publicKey,
      payer: alice.publicKey,
      addresses: recipients,
    });
    await sendAndConfirmTransaction(connection, new Transaction().add(create, extend), [alice]);
    await rpcResult(rpc.rpcUrl, "localnet_produceBlocks", [1]); // extended addresses activate a slot later
    const lookup = (await connection.getAddressLookupTable(table)).value;
    expect(lookup?.state.addresses.map((key) => key.toBase58())).to.deep.equal(
      recipients.map((key) => key.toBase58()),
    );

    const message = new TransactionMessage({
      payerKey: alice.publicKey,
      recentBlockhash: (await connection.getLatestBlockhash()).blockhash,
      instructions: recipients.map((toPubkey) =>
        SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey, lamports: LAMPORTS_PER_SOL }),
      ),
    }).compileToV0Message(lookup ? [lookup] : []);
    expect(message.addressTableLookups).to.have.length(1);
    const tx = new VersionedTransaction(message);
    tx.sign([alice]);
    const signature = await connection.sendTransaction(tx);
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
    expect(await connection.getBalance(recipients[1] as PublicKey)).to.equal(LAMPORTS_PER_SOL);

    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed?.meta?.loadedAddresses?.writable.map((key) => key.toBase58())).to.deep.equal(
      recipients.map((key) => key.toBase58()),
    );
    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    const sources = parsed?.transaction.message.accountKeys.map((key) => key.source);
    expect(sources?.filter((source) => source === "lookupTable")).to.have.length(2);
    const history = await connection.getSignaturesForAddress(recipients[0] as PublicKey);
    expect(history.map((entry) => entry.signature)).to.include(signature);
  });

  it("filters getProgramAccounts by dataSize and memcmp", async () => {
    const payer = await fundedWallet(connection);
    const authority = Keypair.generate().publicKey;
    const mine = [
      await createMint(connection, payer, authority),
      await createMint(connection, payer, authority),
    ];
    await createMint(connection, payer, Keypair.generate().publicKey);

    const byAuthority = await connection.getProgramAccounts(TOKEN_PROGRAM, {
      filters: [{ dataSize: MINT_SIZE }, { memcmp: { offset: 4, bytes: authority.toBase58() } }],
    });
    expect(byAuthority.map((entry) => entry.pubkey.toBase58()).sort()).to.deep.equal(
      mine.map((m) => m.toBase58()).sort(),
    );
    const account = byAuthority[0]?.account;
    expect(account?.owner.toBase58()).to.equal(TOKEN_PROGRAM.toBase58());
    expect(account?.data.subarray(4, 36).equals(authority.toBuffer())).to.equal(true);

    const none = await connection.getProgramAccounts(TOKEN_PROGRAM, {
      filters: [{ dataSize: MINT_SIZE + 1 }],
    });
    expect(none).to.have.length(0);
    const sliced = await connection.getMultipleAccountsInfo(mine, { dataSlice: { offset: 4, length: 32 } });
    expect(sliced.map((info) => info?.data.length)).to.deep.equal([32, 32]);
  });

  it("streams program logs and account changes over the websocket", async () => {
    const alice = await fundedWallet(connection);
    const bob = Keypair.generate().publicKey;
    const logs = new Promise<string[]>((resolve) => {
      const id = connection.onLogs(alice.publicKey, (entry) => {
        void connection.removeOnLogsListener(id);
        resolve(entry.logs);
      });
    });
    const balance = new Promise<number>((resolve) => {
      const id = connection.onAccountChange(bob, (info) => {
        void connection.removeAccountChangeListener(id);
        resolve(info.lamports);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await sendAndConfirmTransaction(connection, transfer(alice, bob, 3_000_000), [alice]);
    expect(await logs).to.include("Program 11111111111111111111111111111111 success");
    expect(await balance).to.equal(3_000_000);
  });

  it("reports the fee litesvm charges, priority fee included, in getFeeForMessage and meta.fee", async () => {
    const alice = await fundedWallet(connection);
    const bob = Keypair.generate().publicKey;
    const tx = new Transaction().add(
      ComputeBudgetProgram.setComputeUnitLimit({ units: 50_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 3_000_000 }),
      SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob, lamports: LAMPORTS_PER_SOL }),
    );
    tx.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
    tx.feePayer = alice.publicKey;
    const quoted = (await connection.getFeeForMessage(tx.compileMessage())).value;
    expect(quoted).to.equal(5_000 + 150_000);

    const before = await connection.getBalance(alice.publicKey);
    const signature = await sendAndConfirmTransaction(connection, tx, [alice]);
    const charged = before - (await connection.getBalance(alice.publicKey)) - LAMPORTS_PER_SOL;
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed?.meta?.fee).to.equal(charged);
    expect(charged).to.equal(quoted);

    // Without a limit, builtins (Compute Budget, System) reserve 3,000 units each: 6,000 lamports here.
    const unlimited = new Transaction().add(
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000_000 }),
      SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob, lamports: LAMPORTS_PER_SOL }),
    );
    unlimited.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
    unlimited.feePayer = alice.publicKey;
    expect((await connection.getFeeForMessage(unlimited.compileMessage())).value).to.equal(5_000 + 6_000);
    const beforeUnlimited = await connection.getBalance(alice.publicKey);
    await sendAndConfirmTransaction(connection, unlimited, [alice]);
    expect(beforeUnlimited - (await connection.getBalance(alice.publicKey)) - LAMPORTS_PER_SOL).to.equal(
      11_000,
    );
  });

  it("answers cluster information consistently", async () => {
    const epoch = await connection.getEpochInfo("confirmed");
    expect(epoch.blockHeight).to.be.at.most(await connection.getBlockHeight("confirmed"));
    expect(epoch.absoluteSlot).to.be.at.most(await connection.getSlot("confirmed"));
    const genesis = await connection.getGenesisHash();
    expect(await connection.getGenesisHash()).to.equal(genesis);
    const other = await startSolanaRpc({ port: 0 });
    try {
      expect(await rpcResult<string>(other.rpcUrl, "getGenesisHash")).not.to.equal(
        genesis,
        "a new chain, a new genesis",
      );
    } finally {
      await other.stop();
    }
    expect((await connection.getVersion())["solana-core"]).to.be.a("string");
    const blocks = await connection.getBlocks(Math.max(0, epoch.absoluteSlot - 3), epoch.absoluteSlot);
    expect(blocks.at(-1)).to.equal(epoch.absoluteSlot);
  });

  it("answers the JSON-RPC protocol errors a validator gives", async () => {
    expect((await rawRpc(rpc.rpcUrl, "getNoSuchThing")).body.error?.code).to.equal(-32601);
    expect((await rawRpc(rpc.rpcUrl, "constructor")).body.error?.code).to.equal(-32601);
    const parse = await fetch(rpc.rpcUrl, { method: "POST", body: "{not json" });
    expect(((await parse.json()) as { error: { code: number } }).error.code).to.equal(-32700);
    const batch = await fetch(rpc.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "getHealth" },
        { jsonrpc: "2.0", id: 2, method: "getSlot" },
        null,
      ]),
    });
    const answers = (await batch.json()) as {
      id: number | null;
      result: unknown;
      error?: { code: number };
    }[];
    expect(answers.map((answer) => answer.id)).to.deep.equal([1, 2, null]);
    expect(answers[2]?.error?.code).to.equal(-32600);
    expect(answers[0]?.result).to.equal("ok");
    expect(await rpcResult<number>(rpc.rpcUrl, "getMinimumBalanceForRentExemption", [0])).to.be.greaterThan(
      0,
    );
  });
});

describe("localnet Solana RPC blockhash window", () => {
  // Its own node: expiring blockhashes here must not touch the blockhash web3.js caches elsewhere.
  let rpc: SolanaRpc;
  let connection: Connection;

  before(async () => {
    rpc = await startSolanaRpc({ port: 0, slotMs: 100 });
    connection = connect(rpc);
  });

  after(async () => {
    await letWebsocketIdle();
    await rpc.stop();
  });

  it("keeps a blockhash valid for 150 blocks and a status cached for 300, as a cluster does", async () => {
    const alice = await fundedWallet(connection);
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash("confirmed");
    expect(lastValidBlockHeight).to.equal((await connection.getBlockHeight("confirmed")) + 150);
    const signed = (lamports: number) => {
      const tx = transfer(alice, Keypair.generate().publicKey, lamports);
      tx.recentBlockhash = blockhash;
      tx.feePayer = alice.publicKey;
      tx.sign(alice);
      return tx.serialize();
    };
    // Blocks are produced by hand from here on, so the count is exact.
    rpc.chain.stop();
    const height = await connection.getBlockHeight("confirmed");
    for (let i = height; i < lastValidBlockHeight; i++) rpc.chain.produceBlock();
    expect(await connection.getBlockHeight("confirmed")).to.equal(lastValidBlockHeight);
    expect((await connection.isBlockhashValid(blockhash)).value).to.equal(true);
    const atLastValidHeight = await connection.sendRawTransaction(signed(LAMPORTS_PER_SOL / 10));
    expect((await connection.getSignatureStatus(atLastValidHeight)).value?.err).to.equal(null);

    rpc.chain.produceBlock();
    expect((await connection.isBlockhashValid(blockhash)).value).to.equal(false);
    const reply = await rawRpc(rpc.rpcUrl, "sendTransaction", [
      Buffer.from(signed(LAMPORTS_PER_SOL / 5)).toString("base64"),
      { encoding: "base64" },
    ]);
    expect(reply.body.error?.code).to.equal(-32002);
    expect(reply.body.error?.data?.err).to.equal("BlockhashNotFound");

    for (let i = 1; i < 300; i++) rpc.chain.produceBlock(); // 300 blocks on top, counting the one above
    expect((await connection.getSignatureStatus(atLastValidHeight)).value?.slot).to.be.a("number");
    rpc.chain.produceBlock();
    expect((await connection.getSignatureStatus(atLastValidHeight)).value).to.equal(
      null,
      "older than the status cache, found only when searching history",
    );
    const searched = await connection.getSignatureStatus(atLastValidHeight, {
      searchTransactionHistory: true,
    });
    expect(searched.value?.confirmationStatus).to.equal("finalized");

    const dropped = await connection.sendRawTransaction(signed(LAMPORTS_PER_SOL / 4), {
      skipPreflight: true,
    });
    expect((await connection.getSignatureStatus(dropped)).value).to.equal(
      null,
      "an expired transaction never lands",
    );
  });
});
