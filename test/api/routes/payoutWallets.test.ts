// Payout wallets over real HTTP: EVM proofs signed by real viem accounts (EIP-4361 messages), Solana proofs by
// real web3.js Keypairs (Ed25519 over the message bytes), an ERC-1271 smart account deployed on the local Hardhat
// node; and every refusal with its own code: forged, replayed, expired, wrong domain, altered message, wrong
// family, another partner's challenge, the other environment's challenge. Rotation archives and re-challenges.
import { createRequire } from "node:module";
import { utils } from "@coral-xyz/anchor";
import { signAsync } from "@noble/ed25519";
import { Keypair } from "@solana/web3.js";
import { expect } from "chai";
import { createPublicClient, createTestClient, createWalletClient, type Hex, http, parseEther } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { registryCatalogue } from "../../../chains/catalogue";
import { type Localnet, startLocalnet } from "../../../scripts/localnet";
import { viemChainOf } from "../../support/localChains";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../support/harness";
import type { HttpResponse } from "../support/http";

interface ChallengeBody {
  challengeId: string;
  chain: string;
  family: string;
  address: string;
  domain: string;
  nonce: string;
  message: string;
  expiresAt: string;
}

interface WalletBody {
  walletId: string;
  chain: string;
  family: string;
  address: string;
  proof: string;
  status: string;
  archivedAt: string | null;
}

type Key = Awaited<ReturnType<typeof issueKey>>;

/** A minimal ERC-1271 account: valid when its owner key signed the hash. */
const ACCOUNT_SOURCE = `// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;
contract OwnedAccount {
  address public immutable owner;
  constructor(address accountOwner) { owner = accountOwner; }
  function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
    if (signature.length != 65) return 0xffffffff;
    bytes32 r = bytes32(signature[0:32]);
    bytes32 s = bytes32(signature[32:64]);
    uint8 v = uint8(signature[64]);
    return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
  }
}`;

function compiledAccount(): { abi: unknown[]; bytecode: Hex } {
  const solc = createRequire(__filename)("solc") as { compile(input: string): string };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "OwnedAccount.sol": { content: ACCOUNT_SOURCE } },
        settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
      }),
    ),
  );
  const contract = output.contracts["OwnedAccount.sol"].OwnedAccount;
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

const solanaSignature = async (keypair: Keypair, message: string) =>
  utils.bytes.bs58.encode(await signAsync(new TextEncoder().encode(message), keypair.secretKey.slice(0, 32)));

describe("api: payout wallets proven by signed challenges", function () {
  this.timeout(120_000);
  let localnet: Localnet;
  let api: TestApi;
  let partnerA: Key;
  let partnerB: Key;
  let sandboxA: Key;

  before(async () => {
    localnet = await startLocalnet({ evmPort: 0, solanaPort: 0, slotMs: 100, manifestPath: null });
    api = await startTestApi({ deps: { registries: registryCatalogue(localnet.manifest) } });
    partnerA = await issueKey(api, "production");
    partnerB = await issueKey(api, "production");
    sandboxA = await issueKey(api, "sandbox", { partnerId: partnerA.partnerId });
  });
  after(async () => {
    await api?.close();
    await localnet?.stop();
  });
  afterEach(() => api.clock.unpin());

  const post = (key: Key, path: string, body: unknown) =>
    api.call({
      method: "POST",
      path: `/api/v1/partner/payout-wallets${path}`,
      headers: bearer(key.secret),
      body,
    });
  const challenge = async (key: Key, chain: string, address: string): Promise<ChallengeBody> => {
    const response = await post(key, "/verify/challenge", { chain, address });
    expect(response.status, response.text).to.equal(201);
    return response.body as ChallengeBody;
  };
  const verify = (key: Key, message: string, signature: string) =>
    post(key, "/verify", { message, signature });
  const walletOf = (response: HttpResponse) => {
    expect(response.status, response.text).to.equal(200);
    return (response.body as { wallet: WalletBody }).wallet;
  };
  const profile = async (key: Key) =>
    (await api.call({ path: "/api/v1/partner/profile", headers: bearer(key.secret) })).body as {
      payoutWallets: WalletBody[];
      openChallenges: { challengeId: string }[];
      routing: { families: { family: string; walletAddress: string | null }[] };
    };
  const auditActions = async (partnerId: string) =>
    (
      await api.db.pool.query<{ action: string }>(
        "SELECT action FROM audit_log WHERE subject LIKE $1 ORDER BY id",
        [`partner:${partnerId}:%`],
      )
    ).rows.map((row) => row.action);

  it("EVM: a viem account signs the EIP-4361 message; the wallet is verified, shown in the profile and audited", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const issued = await challenge(partnerA, "hardhat", account.address);
    expect(issued).to.include({ family: "evm", address: account.address.toLowerCase(), chain: "hardhat" });
    expect(issued.message).to.match(/wants you to sign in with your Ethereum account:\n0x[0-9a-fA-F]{40}\n/);
    expect(issued.message).to.include(`Nonce: ${issued.nonce}`).and.include("Chain ID: 31337");
    const wallet = walletOf(
      await verify(partnerA, issued.message, await account.signMessage({ message: issued.message })),
    );
    expect(wallet).to.include({
      status: "verified",
      proof: "eoa",
      family: "evm",
      address: account.address.toLowerCase(),
    });

    const shown = await profile(partnerA);
    expect(shown.payoutWallets.map((entry) => entry.walletId)).to.deep.equal([wallet.walletId]);
    expect(shown.routing.families.find((route) => route.family === "evm")?.walletAddress).to.equal(
      wallet.address,
    );
    expect(await auditActions(partnerA.partnerId)).to.include.members([
      "payout_wallet.challenged",
      "payout_wallet.verified",
    ]);
    // A second wallet of the family goes through rotation.
    expectEnvelope(
      await post(partnerA, "/verify/challenge", { chain: "hardhat", address: account.address }),
      409,
      "payout_wallet_already_verified",
    );
  });

  it("Solana: a web3.js Keypair signs the Sign-In-With-Solana message (Ed25519 over its bytes)", async () => {
    const keypair = Keypair.generate();
    const issued = await challenge(partnerA, "solana", keypair.publicKey.toBase58());
    expect(issued.message).to.match(/^\S+ wants you to sign in with your Solana account:\n/);
    const wallet = walletOf(
      await verify(partnerA, issued.message, await solanaSignature(keypair, issued.message)),
    );
    expect(wallet).to.include({ proof: "ed25519", family: "solana", address: keypair.publicKey.toBase58() });
  });

  it("a forged signature (another key signed), an altered message and a wrong domain are each refused with their code", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const forger = privateKeyToAccount(generatePrivateKey());
    const issued = await challenge(partnerB, "hardhat", owner.address);
    expectEnvelope(
      await verify(partnerB, issued.message, await forger.signMessage({ message: issued.message })),
      400,
      "wallet_proof_bad_signature",
    );
    const otherDomain = issued.message.replace(issued.domain, "evil.example");
    expectEnvelope(
      await verify(partnerB, otherDomain, await owner.signMessage({ message: otherDomain })),
      400,
      "wallet_proof_wrong_domain",
    );
    const altered = issued.message.replace(/Issued At: .*/, "Issued At: 2020-01-01T00:00:00.000Z");
    expectEnvelope(
      await verify(partnerB, altered, await owner.signMessage({ message: altered })),
      400,
      "wallet_proof_message_altered",
    );
    const keypair = Keypair.generate();
    const solana = await challenge(partnerB, "solana", keypair.publicKey.toBase58());
    expectEnvelope(
      await verify(partnerB, solana.message, await solanaSignature(Keypair.generate(), solana.message)),
      400,
      "wallet_proof_bad_signature",
    );
    // None of the refusals used the challenge up: the owner's own signature still verifies.
    expect(
      walletOf(await verify(partnerB, issued.message, await owner.signMessage({ message: issued.message }))),
    ).to.include({ proof: "eoa" });
  });

  it("a replayed proof and an expired challenge are refused with their codes", async () => {
    const partner = await issueKey(api, "production");
    const keypair = Keypair.generate();
    const issued = await challenge(partner, "solana", keypair.publicKey.toBase58());
    const signature = await solanaSignature(keypair, issued.message);
    walletOf(await verify(partner, issued.message, signature));
    expectEnvelope(await verify(partner, issued.message, signature), 400, "wallet_proof_replayed");

    const account = privateKeyToAccount(generatePrivateKey());
    const late = await challenge(partner, "hardhat", account.address);
    api.clock.set(Date.parse(late.expiresAt) + 1);
    expectEnvelope(
      await verify(partner, late.message, await account.signMessage({ message: late.message })),
      400,
      "wallet_proof_expired",
    );
  });

  it("wrong chain family: an EVM address on Solana, or an answer of the other family, is refused", async () => {
    const partner = await issueKey(api, "production");
    const account = privateKeyToAccount(generatePrivateKey());
    expectEnvelope(
      await post(partner, "/verify/challenge", { chain: "solana", address: account.address }),
      400,
      "wallet_family_mismatch",
    );
    const keypair = Keypair.generate();
    const issued = await challenge(partner, "solana", keypair.publicKey.toBase58());
    // An EVM account signs a Sign-In-With-Ethereum message carrying the Solana challenge's nonce.
    const evmStyle = (await challenge(partner, "hardhat", account.address)).message.replace(
      /Nonce: \w+/,
      `Nonce: ${issued.nonce}`,
    );
    expectEnvelope(
      await verify(partner, evmStyle, await account.signMessage({ message: evmStyle })),
      400,
      "wallet_family_mismatch",
    );
    expectEnvelope(await verify(partner, issued.message, "not-a-signature"), 400, "invalid_request");
    // The right message with an EVM signature.
    expectEnvelope(
      await verify(partner, issued.message, await account.signMessage({ message: issued.message })),
      400,
      "wallet_family_mismatch",
    );
  });

  it("a hostile partner cannot answer another's challenge, nor can the other environment's key; the owner still can", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const victim = await issueKey(api, "production");
    const issued = await challenge(victim, "hardhat", account.address);
    const signature = await account.signMessage({ message: issued.message });
    expectEnvelope(await verify(partnerB, issued.message, signature), 400, "wallet_proof_unknown");
    const victimSandbox = await issueKey(api, "sandbox", { partnerId: victim.partnerId });
    expectEnvelope(await verify(victimSandbox, issued.message, signature), 400, "wallet_proof_unknown");
    expect((await profile(partnerB)).payoutWallets.map((wallet) => wallet.address)).not.to.include(
      account.address.toLowerCase(),
    );
    expect((await profile(victimSandbox)).payoutWallets).to.deep.equal([]);
    expect(walletOf(await verify(victim, issued.message, signature))).to.include({ proof: "eoa" });
  });

  it("sandbox and production wallets are separate: the sandbox key verifies its own, production does not see it", async () => {
    const keypair = Keypair.generate();
    const issued = await challenge(sandboxA, "solana", keypair.publicKey.toBase58());
    walletOf(await verify(sandboxA, issued.message, await solanaSignature(keypair, issued.message)));
    const production = await profile(partnerA);
    expect(production.payoutWallets.map((wallet) => wallet.address)).not.to.include(
      keypair.publicKey.toBase58(),
    );
    expect((await profile(sandboxA)).payoutWallets.map((wallet) => wallet.address)).to.deep.equal([
      keypair.publicKey.toBase58(),
    ]);
  });

  it("rotate archives the verified wallet and challenges the new address; without a verified wallet it is 409", async () => {
    const partner = await issueKey(api, "production");
    expectEnvelope(
      await post(partner, "/rotate", {
        chain: "hardhat",
        address: privateKeyToAccount(generatePrivateKey()).address,
      }),
      409,
      "payout_wallet_not_verified",
    );
    const first = privateKeyToAccount(generatePrivateKey());
    const issued = await challenge(partner, "hardhat", first.address);
    const verified = walletOf(
      await verify(partner, issued.message, await first.signMessage({ message: issued.message })),
    );

    const next: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey());
    const rotated = await post(partner, "/rotate", { chain: "hardhat", address: next.address });
    expect(rotated.status, rotated.text).to.equal(201);
    const body = rotated.body as { archived: WalletBody; challenge: ChallengeBody };
    expect(body.archived).to.include({ walletId: verified.walletId, status: "archived" });
    expect(body.challenge.address).to.equal(next.address.toLowerCase());
    const between = await profile(partner);
    expect(between.routing.families.find((route) => route.family === "evm")?.walletAddress).to.equal(null);
    expect(between.openChallenges.map((open) => open.challengeId)).to.include(body.challenge.challengeId);

    const replacement = walletOf(
      await verify(
        partner,
        body.challenge.message,
        await next.signMessage({ message: body.challenge.message }),
      ),
    );
    const after = await profile(partner);
    expect(after.payoutWallets.map((wallet) => [wallet.address, wallet.status])).to.deep.equal([
      [replacement.address, "verified"],
      [verified.address, "archived"],
    ]);
    expect(await auditActions(partner.partnerId)).to.include("payout_wallet.rotated");
  });

  it("ERC-1271: a smart account deployed on the local Hardhat node proves ownership through isValidSignature", async () => {
    const entry = localnet.manifest.evm[0];
    if (entry === undefined) throw new Error("no EVM chain");
    const chain = viemChainOf(entry);
    const deployer = privateKeyToAccount(generatePrivateKey());
    await createTestClient({ mode: "hardhat", chain, transport: http() }).setBalance({
      address: deployer.address,
      value: parseEther("10"),
    });
    const owner = privateKeyToAccount(generatePrivateKey());
    const { abi, bytecode } = compiledAccount();
    const hash = await createWalletClient({ account: deployer, chain, transport: http() }).deployContract({
      abi,
      bytecode,
      args: [owner.address],
    });
    const receipt = await createPublicClient({ chain, transport: http() }).waitForTransactionReceipt({
      hash,
    });
    const accountAddress = receipt.contractAddress as `0x${string}`;

    const partner = await issueKey(api, "production");
    const issued = await challenge(partner, "hardhat", accountAddress);
    // The owner key signs for the account: recovery gives the owner, not the account, so the chain is asked.
    const signature = await owner.signMessage({ message: issued.message });
    const stranger = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: issued.message });
    expectEnvelope(await verify(partner, issued.message, stranger), 400, "wallet_proof_bad_signature");
    expect(walletOf(await verify(partner, issued.message, signature))).to.include({
      proof: "erc1271",
      address: accountAddress.toLowerCase(),
    });
  });
});
