// Compute units per identity_registry instruction, measured in litesvm on the committed .so deployed through
// the upgradeable loader. PDA derivation costs 1,500 CU per bump tried, so reserve depends on the pair: the
// suite reserves many fixed pairs and reports mean, median and worst case. `npm run bench -- cu`
import { BN } from "@coral-xyz/anchor";
import { Keypair, PublicKey } from "@solana/web3.js";
import { foldedHash, foldV1 } from "../core/fold";
import { deployProgram } from "../scripts/solana/deploy";
import { LiteSvmProvider } from "../scripts/solana/litesvm-provider";
import {
  configAddress,
  initializeRegistry,
  loadProgramBytes,
  localSettings,
  pushLocalPrice,
  type RegistryProgram,
  registryProgram,
  reservationAddress,
  treasuryAddress,
  walletAddress,
} from "../scripts/solana/registry";
import type { Emit } from "./run";

const PAIRS = 48;
const START = 1_767_225_600;
const DAY = 86_400;

const seededKeypair = (index: number) =>
  Keypair.fromSeed(Uint8Array.from({ length: 32 }, (_, i) => (index * 31 + i) % 256));

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

function reserveKeys(
  program: RegistryProgram,
  priceUpdate: PublicKey,
  launcher: PublicKey,
  name: string,
  ticker: string,
) {
  return {
    launcher,
    config: configAddress(program.programId),
    priceUpdate,
    reservation: reservationAddress(program.programId, foldedHash(foldV1(name)), foldedHash(foldV1(ticker))),
    wallet: walletAddress(program.programId, launcher),
    treasury: treasuryAddress(program.programId),
    systemProgram: PublicKey.default,
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

  await initializeRegistry(program, settings);
  emit("initialize", units(), "CU");
  await pushLocalPrice(program, { price: 150_00000000n, exponent: -8, publishTime: START });
  emit("push_price_create", units(), "CU");
  await pushLocalPrice(program, { price: 150_00000000n, exponent: -8, publishTime: START });
  emit("push_price_refresh", units(), "CU");

  const reserve = async (launcher: Keypair, name: string, ticker: string, duration = DAY) => {
    await program.methods
      .reserve(name, ticker, new BN(duration), Array(32).fill(0))
      .accountsStrict(reserveKeys(program, settings.priceUpdate, launcher.publicKey, name, ticker))
      .signers([launcher])
      .rpc();
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
  const firstStats = summary(first);
  const existingStats = summary(existing);
  for (const [key, value] of Object.entries(firstStats)) emit(`reserve_new_wallet_${key}`, value, "CU");
  for (const [key, value] of Object.entries(existingStats))
    emit(`reserve_existing_wallet_${key}`, value, "CU");

  provider.svm.setUnixTimestamp(BigInt(START + DAY - 3600));
  await pushLocalPrice(program, { price: 150_00000000n, exponent: -8, publishTime: START + DAY - 3600 });
  const renewals: number[] = [];
  for (const [index, launcher] of launchers.entries()) {
    await program.methods
      .renew(new BN(DAY))
      .accountsStrict(
        reserveKeys(program, settings.priceUpdate, launcher.publicKey, `Bench Token ${index}`, `BT${index}`),
      )
      .signers([launcher])
      .rpc();
    renewals.push(units());
  }
  for (const [key, value] of Object.entries(summary(renewals))) emit(`renew_${key}`, value, "CU");

  provider.svm.setUnixTimestamp(BigInt(START + 3 * DAY));
  await pushLocalPrice(program, { price: 150_00000000n, exponent: -8, publishTime: START + 3 * DAY });
  const reuse: number[] = [];
  for (const [index, launcher] of launchers.entries()) {
    const next = launchers[(index + 1) % launchers.length] ?? launcher;
    reuse.push(await reserve(next, `Bench Token ${index}`, `BT${index}`));
  }
  for (const [key, value] of Object.entries(summary(reuse)))
    emit(`reserve_reuse_expired_${key}`, value, "CU");

  await program.methods.foldPreview("pepe", "pepe").view();
  emit("fold_preview_4_chars", units(), "CU");
  await program.methods.foldPreview("A".repeat(64), "B".repeat(10)).view();
  emit("fold_preview_64_chars", units(), "CU");

  console.error(
    `reserve with a new wallet (2 PDAs + fee): mean ${firstStats.mean}, p50 ${firstStats.p50}, max ${firstStats.max} CU; ` +
      `existing wallet (1 PDA + fee): mean ${existingStats.mean}, max ${existingStats.max} CU; goal <= 12,000`,
  );
}
