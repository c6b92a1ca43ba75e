// Compute units per identity_registry instruction (and the guarded_launchpad reference program's launches),
// measured in litesvm on the committed .so files deployed through the upgradeable loader. Finding a canonical PDA
// costs one sha256 and one curve check per bump tried, so commit, reserve (the reveal) and a free
// assert_launch_allowed depend on the addresses: the suite runs many fixed pairs (fixed secrets, so every run
// measures the same addresses) and reports mean, median and extremes, and the budgets below against the worst
// case (a figure over its budget is reported on stderr and makes the run exit non-zero). `npm run bench -- cu`
import { BN } from "@coral-xyz/anchor";
import { Keypair, PublicKey, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { foldedHash, foldedHashBytes, foldV1 } from "../core/fold";
import { deployProgram } from "../scripts/solana/deploy";
import { LiteSvmProvider } from "../scripts/solana/litesvm-provider";
import {
  configAddress,
  initializeRegistry,
  loadProgramBytes,
  localSettings,
  pushLocalPrice,
  registryProgram,
  reservationAddress,
} from "../scripts/solana/registry";
import {
  commitMethod,
  planReveal,
  type RevealPlan,
  revealMethod,
} from "../test/programs/support/commitReveal";
import {
  decisionInstruction,
  deployLaunchpad,
  initializeMethod,
  MAINNET_GENESIS,
  planLaunch,
  registryOnlyInstruction,
  signedLaunch,
} from "../test/programs/support/launchpad";
import type { Emit } from "./run";

const PAIRS = 48;
/** Free pairs whose launch check is measured for the worst case: the bump search's tail. */
const SAMPLE_PAIRS = 1024;

/**
 * Upper bounds in CU. `assert_launch_allowed_max` is the worst of the held, expired and sampled free checks;
 * `launchpad_guard_max` is the signed launch's own checks (introspection, signer set, message rebuild), without
 * the Ed25519 program's verification, which is not charged to the transaction's compute units.
 */
export const CU_BUDGETS: Readonly<Record<string, number>> = {
  assert_launch_allowed_max: 6_000,
  launchpad_guard_max: 8_000,
};
const START = 1_767_225_600;
const DAY = 86_400;

const seededKeypair = (index: number) =>
  Keypair.fromSeed(Uint8Array.from({ length: 32 }, (_, i) => (index * 31 + i) % 256));
const seededSecret = (index: number) => Array.from({ length: 32 }, (_, i) => (index * 17 + i * 3) % 256);

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = Math.round(sorted.reduce((sum, value) => sum + value, 0) / sorted.length);
  return {
    mean,
    p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
    max: sorted.at(-1) ?? 0,
    min: sorted[0] ?? 0,
  };
}

export async function run(emit: Emit): Promise<void> {
  const admin = seededKeypair(0);
  const provider = LiteSvmProvider.create(admin, 10n ** 13n);
  provider.svm.setUnixTimestamp(BigInt(START));
  const programKeypair = seededKeypair(1);
  await deployProgram(provider, { program: programKeypair, bytes: loadProgramBytes() });
  const program = registryProgram(provider, programKeypair.publicKey);
  const settings = localSettings(program.programId);
  const units = () => provider.last?.computeUnits ?? Number.NaN;
  const overBudget: string[] = [];
  const checkBudget = (metric: string, value: number) => {
    const budget = CU_BUDGETS[metric];
    if (budget !== undefined && value > budget) overBudget.push(`${metric} ${value} > ${budget}`);
  };
  const emitSummary = (name: string, values: number[]) => {
    const stats = summary(values);
    for (const [key, value] of Object.entries(stats)) emit(`${name}_${key}`, value, "CU");
    return stats;
  };
  const nextSlot = () => provider.svm.svm.warpToSlot(provider.svm.svm.getClock().slot + 1n);
  const price = (publishTime: number) =>
    pushLocalPrice(program, { price: 150_00000000n, exponent: -8, publishTime });

  await initializeRegistry(program, settings);
  emit("initialize", units(), "CU");
  await price(START);
  emit("push_price_create", units(), "CU");
  await price(START);
  emit("push_price_refresh", units(), "CU");

  let secrets = 0;
  const commits: number[] = [];
  /** Commits (measured into `commits`), moves one slot, reveals; returns the reveal's compute units. */
  const reserve = async (launcher: Keypair, name: string, ticker: string) => {
    const plan: RevealPlan = planReveal(program.programId, launcher.publicKey, settings.priceUpdate, {
      name,
      ticker,
      durationSeconds: DAY,
      secret: seededSecret(secrets++),
    });
    await commitMethod(program, plan).signers([launcher]).rpc();
    commits.push(units());
    nextSlot();
    await revealMethod(program, plan).signers([launcher]).rpc();
    return units();
  };

  const first: number[] = [];
  const existing: number[] = [];
  const launchers: Keypair[] = [];
  for (let index = 0; index < PAIRS; index++) {
    const launcher = seededKeypair(100 + index);
    provider.svm.svm.airdrop(launcher.publicKey.toBase58() as never, (10n ** 11n) as never);
    launchers.push(launcher);
    first.push(await reserve(launcher, `Bench Token ${index}`, `BT${index}`));
    existing.push(await reserve(launcher, `Second Token ${index}`, `ST${index}`));
  }
  const commitStats = emitSummary("commit", commits);
  const firstStats = emitSummary("reserve_new_wallet", first);
  const existingStats = emitSummary("reserve_existing_wallet", existing);
  const revealStats = emitSummary("reserve", [...first, ...existing]);

  const check = async (name: string, ticker: string, launcher: PublicKey) => {
    await program.methods
      .assertLaunchAllowed(name, ticker, launcher)
      .accountsStrict({
        config: configAddress(program.programId),
        reservation: reservationAddress(
          program.programId,
          foldedHash(foldV1(name)),
          foldedHash(foldV1(ticker)),
        ),
      })
      .view();
    return units();
  };
  const held: number[] = [];
  const free: number[] = [];
  for (const [index, launcher] of launchers.entries()) {
    held.push(await check(`Bench Token ${index}`, `BT${index}`, launcher.publicKey));
    free.push(await check(`Free Token ${index}`, `FT${index}`, launcher.publicKey));
  }
  const heldStats = emitSummary("assert_launch_allowed_held", held);
  const freeStats = emitSummary("assert_launch_allowed_free", free);

  // The free check's cost is linear in the bumps tried; a larger sample shows the tail, and the fit says how
  // rare an identity over the budget is (each further try happens for half of the identities that needed the
  // one before).
  const sampled: { units: number; tries: number }[] = [];
  for (let index = 0; index < SAMPLE_PAIRS; index++) {
    const [name, ticker] = [`Sample Pair ${index}`, `SP${index}`];
    const [, bump] = PublicKey.findProgramAddressSync(
      [Buffer.from("reservation"), hashBytes(name), hashBytes(ticker)],
      program.programId,
    );
    sampled.push({ units: await check(name, ticker, admin.publicKey), tries: 256 - bump });
  }
  const sampleStats = emitSummary(
    "assert_launch_allowed_free_sample",
    sampled.map((entry) => entry.units),
  );
  const firstTry = sampled.filter((entry) => entry.tries === 1).map((entry) => entry.units);
  const base = Math.max(...firstTry);
  const perTry = Math.max(
    ...sampled.filter((entry) => entry.tries > 1).map((entry) => (entry.units - base) / (entry.tries - 1)),
  );
  const mostTries = Math.max(...sampled.map((entry) => entry.tries));
  const triesWithinBudget = 1 + Math.floor(((CU_BUDGETS.assert_launch_allowed_max ?? 0) - base) / perTry);
  emit("assert_launch_allowed_free_first_try", base, "CU");
  emit("assert_launch_allowed_free_per_extra_try", Math.ceil(perTry), "CU");
  emit("assert_launch_allowed_free_sample_most_tries", mostTries, "tries");
  emit("assert_launch_allowed_free_tries_within_budget", triesWithinBudget, "tries");

  // guarded_launchpad: each launcher launches its own held pair twice (two mints), registry-only then signed. The
  // registry's answer costs the same both times, so signed - registry-only is the guard itself: the instructions
  // sysvar introspection, the trusted-signer lookup, the clock and the message rebuild and compare. The Ed25519
  // program's own verification is charged outside the transaction's compute units (measured alone below).
  const launchpad = await deployLaunchpad(provider, seededKeypair(2));
  await initializeMethod(launchpad, admin.publicKey, program.programId, MAINNET_GENESIS).rpc();
  const decisionKey = seededKeypair(3);
  await program.methods
    .setDecisionSigner(decisionKey.publicKey, new BN(START - DAY), new BN(START + 30 * DAY))
    .accountsStrict({ admin: admin.publicKey, config: configAddress(program.programId) })
    .rpc();
  const send = async (instructions: TransactionInstruction[], signers: Keypair[]) => {
    await provider.sendAndConfirm(new Transaction().add(...instructions), signers);
    return units();
  };
  const registryOnly: number[] = [];
  const signedLaunches: number[] = [];
  const guard: number[] = [];
  for (const [index, launcher] of launchers.entries()) {
    const pair = { name: `Bench Token ${index}`, ticker: `BT${index}` };
    const first = planLaunch(launchpad, program.programId, launcher, pair, BigInt(START + 600));
    const plain = await send(
      [await registryOnlyInstruction(launchpad, program.programId, first)],
      [launcher, first.mint],
    );
    const second = planLaunch(launchpad, program.programId, launcher, pair, BigInt(START + 600));
    const signed = await send(await signedLaunch(launchpad, program.programId, second, decisionKey), [
      launcher,
      second.mint,
    ]);
    registryOnly.push(plain);
    signedLaunches.push(signed);
    guard.push(signed - plain);
  }
  const registryOnlyStats = emitSummary("launchpad_launch_registry_only", registryOnly);
  const signedStats = emitSummary("launchpad_launch_signed", signedLaunches);
  const guardStats = emitSummary("launchpad_guard", guard);
  const precompile = await send([decisionInstruction(decisionKey, Buffer.alloc(265))], []);
  emit("ed25519_precompile_alone", precompile, "CU");

  provider.svm.setUnixTimestamp(BigInt(START + DAY - 3600));
  await price(START + DAY - 3600);
  const renewals: number[] = [];
  for (const [index, launcher] of launchers.entries()) {
    const plan = planReveal(program.programId, launcher.publicKey, settings.priceUpdate, {
      name: `Bench Token ${index}`,
      ticker: `BT${index}`,
      durationSeconds: DAY,
    });
    const { commitment: _unused, ...accounts } = plan.accounts;
    await program.methods.renew(new BN(DAY)).accountsStrict(accounts).signers([launcher]).rpc();
    renewals.push(units());
  }
  emitSummary("renew", renewals);

  provider.svm.setUnixTimestamp(BigInt(START + 3 * DAY));
  await price(START + 3 * DAY);
  const expired: number[] = [];
  for (const [index, launcher] of launchers.entries()) {
    expired.push(await check(`Second Token ${index}`, `ST${index}`, launcher.publicKey));
  }
  const expiredStats = emitSummary("assert_launch_allowed_expired", expired);
  const launchCheckMax = Math.max(heldStats.max, freeStats.max, sampleStats.max, expiredStats.max);
  emit("assert_launch_allowed_max", launchCheckMax, "CU");
  checkBudget("assert_launch_allowed_max", launchCheckMax);
  checkBudget("launchpad_guard_max", guardStats.max);
  const reuse: number[] = [];
  for (const [index, launcher] of launchers.entries()) {
    const next = launchers[(index + 1) % launchers.length] ?? launcher;
    reuse.push(await reserve(next, `Bench Token ${index}`, `BT${index}`));
  }
  emitSummary("reserve_reuse_expired", reuse);

  // A commitment nobody revealed, closed by anyone once older than 24 hours.
  const abandoned = planReveal(
    program.programId,
    launchers[0]?.publicKey ?? admin.publicKey,
    settings.priceUpdate,
    {
      name: "Abandoned",
      ticker: "ABND",
      durationSeconds: DAY,
      secret: seededSecret(10_000),
    },
  );
  await commitMethod(program, abandoned)
    .signers([launchers[0] ?? admin])
    .rpc();
  provider.svm.setUnixTimestamp(BigInt(START + 4 * DAY + 1));
  await program.methods
    .closeCommitment()
    .accountsStrict({ commitment: abandoned.accounts.commitment, launcher: abandoned.accounts.launcher })
    .rpc();
  emit("close_commitment", units(), "CU");

  await program.methods.foldPreview("pepe", "pepe").view();
  emit("fold_preview_4_chars", units(), "CU");
  await program.methods.foldPreview("A".repeat(64), "B".repeat(10)).view();
  emit("fold_preview_64_chars", units(), "CU");

  console.error(
    `commit: mean ${commitStats.mean}, max ${commitStats.max} CU (goal <= 6,000 mean); ` +
      `reserve (reveal): mean ${revealStats.mean} CU (goal <= 14,000 mean), new wallet mean ${firstStats.mean} ` +
      `(max ${firstStats.max}), existing wallet mean ${existingStats.mean} (max ${existingStats.max})`,
  );
  console.error(
    `assert_launch_allowed: held mean ${heldStats.mean} (max ${heldStats.max}), expired max ${expiredStats.max}, ` +
      `free mean ${freeStats.mean} (max ${freeStats.max}); ${SAMPLE_PAIRS} free pairs: mean ${sampleStats.mean}, ` +
      `max ${sampleStats.max} (${mostTries} bumps tried); ${base} CU when the first bump is the canonical one, ` +
      `+${Math.ceil(perTry)} per further bump: within the budget up to ${triesWithinBudget} bumps, so one ` +
      `identity in 2^${triesWithinBudget} is over it. Worst measured ${launchCheckMax} ` +
      `(budget ${CU_BUDGETS.assert_launch_allowed_max})`,
  );
  console.error(
    `guarded_launchpad: launch_registry_only mean ${registryOnlyStats.mean}, launch (signed) mean ` +
      `${signedStats.mean} (max ${signedStats.max}); the guard (signed - registry-only: sysvar introspection, ` +
      `Ed25519 layout, signer set, clock, message rebuild) mean ${guardStats.mean}, max ${guardStats.max} ` +
      `(budget ${CU_BUDGETS.launchpad_guard_max}); the Ed25519 program alone ${precompile} CU`,
  );
  if (overBudget.length > 0) {
    console.error(`Over budget: ${overBudget.join("; ")}`);
    process.exitCode = 1;
  }
}

const hashBytes = (text: string) => Buffer.from(foldedHashBytes(foldV1(text)));
