// On the local chains with real wallets: a launchpad's own contract (the reference GuardedLaunchpad on
// Hardhat) and program (guarded_launchpad on the Solana RPC) launch an identity for its holder with the service's
// signed allow, and refuse a copycat of a reserved, bonded, milestone-locked or guardian-blocked identity; the
// registry-only path refuses a reserved one with no service call; and the registries' signer sets follow the key
// ring through the operator CLI: rotation keeps the old key for its overlap only, revocation acts at once.
import { sign } from "node:crypto";
import { AnchorProvider, Wallet } from "@coral-xyz/anchor";
import {
  Connection,
  Keypair,
  PublicKey,
  SendTransactionError,
  Transaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import { expect } from "chai";
import {
  type Account,
  BaseError,
  type Chain,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { parseConfig } from "../../config";
import type { EvmOnchainDecision, OnchainDecision, SolanaOnchainDecision } from "../../core/decision/onchain";
import { launchDecisionTypedData, solanaLaunchDecisionMessage } from "../../core/decision/onchain";
import { normalizeIdentity } from "../../core/fold";
import { openEvmDecisionKey, openSigningKey } from "../../core/keyring";
import { createSecretBox } from "../../core/secrets/secretBox";
import type { OperatorContext } from "../../scripts/operator/command";
import { commands as signingKeyCommands } from "../../scripts/operator/commands/signing-keys";
import { REGISTRY_ADMIN_KEYS } from "../../scripts/registryAdminKeys";
import {
  guardedLaunchArgs,
  guardedLaunchInstructions,
  OnchainDecisionError,
  predictGuardedToken,
} from "../../sdk/src/onchainGuard";
import {
  deployGuardedLaunchpad,
  guardedLaunchpadArtifact,
  uncheckedLaunchInstructions,
} from "../../sdk/src/testing";
import { blockIdentity } from "../../services/identity/guardian";
import { bindLaunchpadContract } from "../../services/partners/launchpadContracts";
import {
  ensureSigningKeys,
  KEY_OVERLAP_SECONDS,
  listSigningKeys,
} from "../../services/signing/signingKeyStore";
import { syncRegistrySigners } from "../../services/signing/syncRegistrySigners";
import { deployLaunchpad, initializeMethod, registryOnlyInstruction } from "../programs/support/launchpad";
import { viemChainOf } from "../support/localChains";
import {
  type ChainWallet,
  type E2e,
  keeperPost,
  launchpadKeeper,
  partnerApi,
  startE2e,
  uniquePair,
  waitUntil,
} from "./support";

const OPERATOR = { actor: "e2e", reason: "on-chain guard" };
/** How each chain's guard names a signer outside the registry's signer set. */
const UNTRUSTED = { evm: "UntrustedDecisionSigner", solana: "UntrustedSigner" } as const;
const LAUNCHPAD_ID = "guard-pad";

type Pair = { name: string; ticker: string };
/** What a launch attempt came to: launched, or the error the chain refused it with. */
type Outcome = "launched" | string;

/** One chain's guarded launchpad as a launcher uses it. */
interface GuardedChain {
  chain: string;
  /** The launchpad contract (EVM factory) or program (Solana) id. */
  launchpad: string;
  /** A fresh token of this launcher and pair: its address or mint, and how to launch it. */
  plan(wallet: ChainWallet, pair: Pair): Promise<LaunchPlan>;
  /** The registry-only path: no decision. */
  launchRegistryOnly(wallet: ChainWallet, pair: Pair): Promise<Outcome>;
}

interface LaunchPlan {
  token: string;
  /** Through the SDK's helpers (which refuse anything but a live allow for exactly this launch). */
  launchWithSdk(onchain: OnchainDecision): Promise<Outcome>;
  /** The answer's signature sent as it is, with the SDK's checks skipped: what the chain itself decides. */
  launchAnyway(onchain: OnchainDecision): Promise<Outcome>;
}

function evmRevertName(error: unknown): string {
  if (error instanceof BaseError) {
    const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError)
      return reverted.data?.errorName ?? reverted.shortMessage;
  }
  throw error;
}

async function evmGuardedChain(
  e2e: E2e,
): Promise<GuardedChain & { factory: Hex; publicClient: PublicClient }> {
  const entry = e2e.localnet.manifest.evm[0];
  if (entry === undefined) throw new Error("the localnet has no EVM chain");
  const chain: Chain = viemChainOf(entry);
  const publicClient = createPublicClient({ chain, transport: http() }) as PublicClient;
  const deployer = privateKeyToAccount(generatePrivateKey());
  await e2e.evm.test.setBalance({ address: deployer.address, value: 10n ** 20n });
  const factory = await deployGuardedLaunchpad(
    createWalletClient({ account: deployer, chain, transport: http() }),
    publicClient,
    entry.registry,
  );
  const accountOf = (wallet: ChainWallet): Account => {
    if (wallet.signer.family !== "evm") throw new Error("an EVM wallet is needed");
    return wallet.signer.account;
  };
  /** Simulates first (so a refusal is named), then sends and waits for the receipt. */
  const send = async (
    account: Account,
    functionName: "launch" | "launchRegistryOnly",
    args: readonly unknown[],
  ) => {
    try {
      const { request } = await publicClient.simulateContract({
        account,
        address: factory,
        abi: guardedLaunchpadArtifact.abi,
        functionName,
        args: args as never,
      });
      const hash = await createWalletClient({ account, chain, transport: http() }).writeContract(request);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      return receipt.status === "success" ? "launched" : "reverted";
    } catch (error) {
      return evmRevertName(error);
    }
  };
  const salt = (): Hex => generatePrivateKey();
  return {
    chain: entry.chain,
    launchpad: factory,
    factory,
    publicClient,
    async plan(wallet, pair) {
      const account = accountOf(wallet);
      const tokenSalt = salt();
      const token = await predictGuardedToken(publicClient, {
        factory,
        ...pair,
        launcher: account.address,
        salt: tokenSalt,
      });
      return {
        token,
        launchWithSdk: async (onchain) =>
          send(
            account,
            "launch",
            guardedLaunchArgs(
              onchain as EvmOnchainDecision,
              { ...pair, salt: tokenSalt, launcher: account.address, factory, chainId: entry.chainId, token },
              { now: e2e.clock.nowMs() },
            ),
          ),
        launchAnyway: (onchain) => {
          const decision = onchain as EvmOnchainDecision;
          return send(account, "launch", [
            pair.name,
            pair.ticker,
            tokenSalt,
            BigInt(decision.expiresAt),
            decision.nonce,
            decision.signature,
          ]);
        },
      };
    },
    launchRegistryOnly: (wallet, pair) =>
      send(accountOf(wallet), "launchRegistryOnly", [pair.name, pair.ticker, salt()]),
  };
}

/** The program's error name from a failed send's logs (Anchor's log line, or the registry's own). */
function solanaErrorName(error: unknown): string {
  if (!(error instanceof SendTransactionError)) throw error;
  const logs = (error.logs ?? []).join("\n");
  return /Error Code: (\w+)/.exec(logs)?.[1] ?? error.message;
}

async function solanaGuardedChain(e2e: E2e): Promise<GuardedChain & { programId: PublicKey }> {
  const entry = e2e.localnet.manifest.solana[0];
  if (entry?.genesisHash === undefined)
    throw new Error("the localnet has no Solana chain with a genesis hash");
  const connection = new Connection(entry.rpcUrl, {
    commitment: "confirmed",
    ...(entry.wsUrl === undefined ? {} : { wsEndpoint: entry.wsUrl }),
  });
  const admin = Keypair.generate();
  e2e.localnet.solana.chain.airdrop(admin.publicKey.toBase58(), 10n ** 11n);
  const provider = new AnchorProvider(connection, new Wallet(admin), { commitment: "confirmed" });
  const launchProgram = await deployLaunchpad(provider);
  const registryProgram = new PublicKey(entry.programId);
  await initializeMethod(
    launchProgram,
    admin.publicKey,
    registryProgram,
    new PublicKey(entry.genesisHash).toBuffer(),
  ).rpc();
  const keypairOf = (wallet: ChainWallet): Keypair => {
    if (wallet.signer.family !== "solana") throw new Error("a Solana wallet is needed");
    return wallet.signer.keypair;
  };
  const send = async (instructions: TransactionInstruction[], signers: Keypair[]): Promise<Outcome> => {
    const transaction = new Transaction().add(...instructions);
    transaction.feePayer = signers[0]?.publicKey;
    transaction.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
    transaction.sign(...signers);
    try {
      const signature = await connection.sendRawTransaction(transaction.serialize());
      await waitUntil(
        async () => (await connection.getSignatureStatuses([signature])).value[0],
        (status) => status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized",
        `launch ${signature}`,
      );
      return "launched";
    } catch (error) {
      return solanaErrorName(error);
    }
  };
  return {
    chain: entry.chain,
    launchpad: launchProgram.programId.toBase58(),
    programId: launchProgram.programId,
    async plan(wallet, pair) {
      const launcher = keypairOf(wallet);
      const mint = Keypair.generate();
      return {
        token: mint.publicKey.toBase58(),
        launchWithSdk: async (onchain) =>
          send(
            guardedLaunchInstructions(
              onchain as SolanaOnchainDecision,
              {
                ...pair,
                launcher: launcher.publicKey,
                mint: mint.publicKey,
                launchpadProgram: launchProgram.programId,
                cluster: entry.genesisHash,
                registryProgram,
              },
              { now: e2e.clock.nowMs() },
            ),
            [launcher, mint],
          ),
        launchAnyway: (onchain) =>
          send(
            uncheckedLaunchInstructions(onchain as SolanaOnchainDecision, {
              ...pair,
              launcher: launcher.publicKey,
              mint: mint.publicKey,
            }),
            [launcher, mint],
          ),
      };
    },
    async launchRegistryOnly(wallet, pair) {
      const launcher = keypairOf(wallet);
      const mint = Keypair.generate();
      return send(
        [await registryOnlyInstruction(launchProgram, registryProgram, { launcher, mint, ...pair } as never)],
        [launcher, mint],
      );
    },
  };
}

describe("e2e: a launchpad's own contract and program refuse copycats, on the local chains with real wallets", function () {
  this.timeout(240_000);
  let e2e: E2e;
  let partner: ReturnType<typeof partnerApi>;
  let keeper: string;
  let chains: { evm: GuardedChain; solana: GuardedChain };

  const operatorContext = (): OperatorContext => ({
    pool: e2e.db.pool,
    config: parseConfig({ DEPLOYMENT_MANIFEST: e2e.manifestPath }),
    masterKey: e2e.api.masterKey,
    out: () => undefined,
  });
  const signingKeys = async (name: string, args: string[]) => {
    const command = signingKeyCommands.find((candidate) => candidate.name === name);
    if (command === undefined) throw new Error(`no command ${name}`);
    await command.run([...args, "--actor", "ops-e2e", "--reason", "guard drill"], operatorContext());
  };
  const activeKid = async () =>
    (await listSigningKeys(e2e.db.pool)).find(
      (key) => key.environment === "production" && key.status === "active",
    )?.kid;

  before(async () => {
    e2e = await startE2e();
    partner = partnerApi(e2e);
    const { pool } = e2e.db;
    keeper = await launchpadKeeper(e2e, LAUNCHPAD_ID, "guard keeper", OPERATOR);
    // The local registries trust the production key as the operator CLI keeps them.
    await ensureSigningKeys(pool, createSecretBox(e2e.api.masterKey));
    const synced = await syncRegistrySigners(pool, {
      environment: "production",
      manifest: e2e.localnet.manifest,
      admin: REGISTRY_ADMIN_KEYS,
      by: OPERATOR,
    });
    expect(synced.ok, JSON.stringify(synced)).to.equal(true);
    chains = { evm: await evmGuardedChain(e2e), solana: await solanaGuardedChain(e2e) };
    for (const guarded of Object.values(chains)) {
      await bindLaunchpadContract(
        pool,
        {
          environment: "production",
          chain: guarded.chain,
          family: guarded === chains.evm ? "evm" : "solana",
          address: guarded.launchpad,
          launchpad: LAUNCHPAD_ID,
        },
        OPERATOR,
      );
    }
  });
  after(async () => e2e?.stop());

  const post = (path: string, body: object) => keeperPost(e2e, keeper, path, body);
  /** Validate with `onchain` for this launch; the Ed25519 decision and the on-chain one agree. */
  const decide = async (guarded: GuardedChain, wallet: ChainWallet, pair: Pair, token: string) => {
    const response = await post("/launches/validate", {
      chain: guarded.chain,
      ...pair,
      launcher: wallet.address,
      launchpad: LAUNCHPAD_ID,
      onchain: { launchpad: guarded.launchpad, token },
    });
    expect(response.status, response.text).to.equal(200);
    const answer = response.body as { decision: string; onchain: OnchainDecision };
    expect(answer.onchain.decision).to.equal(answer.decision === "allow" ? "allow" : "block");
    return answer.onchain;
  };
  /** The SDK refuses a block; sent anyway, the chain refuses it with `refusal`. */
  const expectRefusedOnChain = async (
    guarded: GuardedChain,
    wallet: ChainWallet,
    pair: Pair,
    refusal: string,
  ) => {
    const plan = await guarded.plan(wallet, pair);
    const onchain = await decide(guarded, wallet, pair, plan.token);
    expect(onchain.decision).to.equal("block");
    let sdkRefusal: unknown;
    await plan.launchWithSdk(onchain).catch((error: unknown) => {
      sdkRefusal = error;
    });
    expect(sdkRefusal).to.be.instanceOf(OnchainDecisionError);
    expect(await plan.launchAnyway(onchain)).to.equal(refusal);
  };
  const reserved = async (driverWallet: () => Promise<ChainWallet>, family: "evm" | "solana", pair: Pair) => {
    const driver = family === "evm" ? e2e.evm : e2e.solana;
    const holder = await driverWallet();
    await driver.reserveDirectly(holder, pair.name, pair.ticker);
    await waitUntil(
      () => partner.check(driver.chain, pair.name, pair.ticker),
      (answer) => answer.status === "reserved",
      `${pair.name} reserved on ${driver.chain}`,
    );
    return holder;
  };

  for (const family of ["evm", "solana"] as const) {
    const NOT_ALLOW = family === "evm" ? "DecisionNotAllow" : "DecisionBlocked";
    const guarded = () => chains[family];
    const driver = () => (family === "evm" ? e2e.evm : e2e.solana);
    const newWallet = () => driver().newWallet();

    describe(
      family === "evm" ? "EVM: GuardedLaunchpad on Hardhat" : "Solana: guarded_launchpad on the local RPC",
      () => {
        it("the holder of a reservation launches with the service's allow, through the SDK; the copycat is refused by the chain", async () => {
          const pair = uniquePair("Guard");
          const holder = await reserved(newWallet, family, pair);
          const plan = await guarded().plan(holder, pair);
          expect(await plan.launchWithSdk(await decide(guarded(), holder, pair, plan.token))).to.equal(
            "launched",
          );
          // The guard runs the registry's check first: the reservation refuses the copycat before any decision.
          await expectRefusedOnChain(guarded(), await newWallet(), pair, "LaunchRefused");
        });

        it("registry-only: a copycat of a reserved identity reverts with no service call; its holder launches", async () => {
          const pair = uniquePair("Trustless");
          const holder = await reserved(newWallet, family, pair);
          expect(await guarded().launchRegistryOnly(await newWallet(), pair)).to.equal("LaunchRefused");
          expect(await guarded().launchRegistryOnly(holder, pair)).to.equal("launched");
        });

        it("copycats of a bonded, a milestone-locked and a guardian-blocked identity are refused by the chain", async () => {
          const { chain } = driver();
          for (const lock of ["bonded", "milestone", "guardian"] as const) {
            const pair = uniquePair(lock === "bonded" ? "Bond" : lock === "milestone" ? "Mile" : "Ward");
            if (lock === "guardian") {
              await blockIdentity(
                e2e.db.pool,
                {
                  environment: "production",
                  identityKey: normalizeIdentity(pair.name, pair.ticker).identityKey,
                },
                OPERATOR,
              );
            } else {
              const creator = await newWallet();
              const report = { chain, launchpad: LAUNCHPAD_ID, ...pair };
              const launched = await post("/launches/report", {
                ...report,
                launcher: creator.address,
                tokenOrMint: creator.address,
              });
              expect(launched.status, launched.text).to.equal(200);
              const locked = await post(`/events/${lock}`, report);
              expect(locked.status, locked.text).to.equal(200);
            }
            // The registry knows none of these: only the signed path refuses them.
            await expectRefusedOnChain(guarded(), await newWallet(), pair, NOT_ALLOW);
          }
        });
      },
    );
  }

  // One drill over both chains: the CLI dates keys by the wall clock, so no chain may be warped past it first.
  it("rotation: the old key's decisions launch during the overlap and revert after it; revocation acts at once, on both chains", async () => {
    const families = ["evm", "solana"] as const;
    const launchers = { evm: await e2e.evm.newWallet(), solana: await e2e.solana.newWallet() };
    type Planned = { plan: LaunchPlan; decision: OnchainDecision };
    const planned = async (family: (typeof families)[number], pair: Pair): Promise<Planned> => {
      const plan = await chains[family].plan(launchers[family], pair);
      return { plan, decision: await decide(chains[family], launchers[family], pair, plan.token) };
    };
    const oldKid = await activeKid();
    // Decisions by the key about to be rotated out, not launched yet.
    const early = {
      evm: await planned("evm", uniquePair("Overlap")),
      solana: await planned("solana", uniquePair("Overlap")),
    };
    for (const family of families) expect(early[family].decision.keyId).to.equal(oldKid);
    await signingKeys("signing-keys:rotate", ["--environment", "production"]);
    const newKid = await activeKid();
    expect(newKid).to.not.equal(oldKid);
    for (const family of families) {
      const { plan, decision } = early[family];
      expect(await plan.launchWithSdk(decision)).to.equal("launched", `${family}: inside the overlap`);
    }

    // Past the overlap: a decision by the old key that has not itself expired is refused for its signer.
    const late = uniquePair("Lapsed");
    const templates = { evm: await planned("evm", late), solana: await planned("solana", late) };
    await e2e.warp(KEY_OVERLAP_SECONDS + 60);
    for (const family of families) {
      const { plan, decision } = templates[family];
      const forged = await resignedByKey(e2e, oldKid as string, decision, e2e.clock.nowMs() / 1000 + 3600);
      expect(await plan.launchAnyway(forged)).to.equal(UNTRUSTED[family], `${family}: past the overlap`);
    }
    const current = { evm: await planned("evm", late), solana: await planned("solana", late) };
    for (const family of families) expect(current[family].decision.keyId).to.equal(newKid);

    // Revocation: the active key's live decisions stop launching at once; the replacement's launch.
    await signingKeys("signing-keys:revoke", ["--kid", newKid as string]);
    for (const family of families) {
      const { plan, decision } = current[family];
      expect(await plan.launchAnyway(decision)).to.equal(UNTRUSTED[family], `${family}: revoked`);
      const replacement = await planned(family, late);
      expect(replacement.decision.keyId).to.not.equal(newKid);
      expect(await replacement.plan.launchWithSdk(replacement.decision)).to.equal(
        "launched",
        `${family}: replacement`,
      );
    }
  });
});

/** `template` signed again by the key `kid` (opened from the key ring) with another expiry: a decision that key
 * could have signed, to show the registry's window, not the decision's own expiry, refuses it. */
async function resignedByKey(e2e: E2e, kid: string, template: OnchainDecision, expiresAt: number) {
  const box = createSecretBox(e2e.api.masterKey);
  const { rows } = await e2e.db.pool.query<{
    environment: "production";
    public_key: Buffer;
    private_key_encrypted: string;
    evm_address: string;
    evm_private_key_encrypted: string;
    created_at: Date;
  }>(
    "SELECT environment, public_key, private_key_encrypted, evm_address, evm_private_key_encrypted, created_at FROM signing_keys WHERE kid = $1",
    [kid],
  );
  const row = rows[0];
  if (row === undefined) throw new Error(`no key ${kid}`);
  const seconds = Math.floor(expiresAt);
  if (template.kind === "evm") {
    const key = openEvmDecisionKey(box, kid, row.evm_address, row.evm_private_key_encrypted);
    const fields = { ...template, expiresAt: seconds };
    const signature = await privateKeyToAccount(key.privateKey).signTypedData(
      launchDecisionTypedData(fields),
    );
    return { ...fields, keyId: kid, signer: key.address, signature } satisfies EvmOnchainDecision;
  }
  const { privateKey } = openSigningKey(
    box,
    {
      kid,
      environment: row.environment,
      status: "active",
      publicKeyBase64: row.public_key.toString("base64"),
      createdAt: row.created_at,
    },
    row.private_key_encrypted,
  );
  const fields = { ...template, expiresAt: seconds };
  const message = solanaLaunchDecisionMessage(fields);
  return {
    ...fields,
    message: Buffer.from(message).toString("base64"),
    keyId: kid,
    signer: new PublicKey(row.public_key).toBase58(),
    signature: sign(null, message, privateKey).toString("base64"),
  } satisfies SolanaOnchainDecision;
}
