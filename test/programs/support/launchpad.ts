// The guarded_launchpad reference program (programs/guarded_launchpad, C, .so committed) in tests: deploy and
// initialize it beside a registry fixture, sign launch decisions with node:crypto, and build the Ed25519 and launch
// instructions of one launch.
import { createPrivateKey, randomBytes, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BN, type Idl, Program, type Provider, translateError } from "@coral-xyz/anchor";
import {
  AddressLookupTableAccount,
  AddressLookupTableProgram,
  Ed25519Program,
  Keypair,
  PublicKey,
  SYSVAR_INSTRUCTIONS_PUBKEY,
  SystemProgram,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { LiteSVM } from "litesvm";
import {
  type SolanaLaunchDecisionFields as LaunchDecisionFields,
  solanaLaunchDecisionMessage as launchDecisionMessage,
} from "../../../core/decision/onchain";
import { foldedHashBytes, foldV1 } from "../../../core/fold";
import type { GuardedLaunchpad } from "../../../programs/guarded_launchpad/idl/guarded_launchpad";
import { deployProgram } from "../../../scripts/solana/deploy";
import { LiteSvmConnection } from "../../../scripts/solana/litesvm-connection";
import { LiteSvmProvider } from "../../../scripts/solana/litesvm-provider";
import { configAddress, registryProgram, reservationAddress } from "../../../scripts/solana/registry";
import { programDataAddress } from "../../../scripts/solana/upgradeable-loader";
import { DAY, deployedRegistry, type Fixture, START_TIME } from "./fixture";

export const LAUNCHPAD_DIR = join(__dirname, "..", "..", "..", "programs", "guarded_launchpad");
export const LAUNCHPAD_SOURCE_DIR = join(LAUNCHPAD_DIR, "src");
export const LAUNCHPAD_SO_PATH = join(LAUNCHPAD_DIR, "build", "guarded_launchpad.so");
export const LAUNCHPAD_IDL_PATH = join(LAUNCHPAD_DIR, "idl", "guarded_launchpad.json");

/** Mainnet-beta's genesis hash: the cluster the test launchpads are configured for. */
export const MAINNET_GENESIS = new PublicKey("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d").toBuffer();
/** Devnet's genesis hash: a decision for another cluster. */
export const DEVNET_GENESIS = new PublicKey("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG").toBuffer();

export type LaunchpadProgram = Program<GuardedLaunchpad>;

export function loadLaunchpadIdl(): GuardedLaunchpad {
  return JSON.parse(readFileSync(LAUNCHPAD_IDL_PATH, "utf8")) as GuardedLaunchpad;
}

export function launchpadProgram(provider: Provider, programId: PublicKey): LaunchpadProgram {
  const idl = { ...loadLaunchpadIdl(), address: programId.toBase58() };
  return new Program(idl as Idl, provider) as unknown as LaunchpadProgram;
}

/** The launchpad's config PDA ["config"] (the registry's has the same seed under its own id). */
export const launchpadConfigAddress = (programId: PublicKey) => configAddress(programId);

/** Deploys the committed guarded_launchpad.so (under a fresh id by default); the provider's wallet is its upgrade
 * authority. */
export async function deployLaunchpad(
  provider: Provider,
  program = Keypair.generate(),
): Promise<LaunchpadProgram> {
  const deployed = await deployProgram(provider, { program, bytes: readFileSync(LAUNCHPAD_SO_PATH) });
  return launchpadProgram(provider, new PublicKey(deployed.programId));
}

export function initializeMethod(
  program: LaunchpadProgram,
  admin: PublicKey,
  registry: PublicKey,
  cluster: Buffer,
) {
  return program.methods.initialize(registry, Array.from(cluster)).accountsStrict({
    admin,
    config: launchpadConfigAddress(program.programId),
    programData: programDataAddress(program.programId),
    systemProgram: SystemProgram.programId,
  });
}

/** Signs `message` with the Ed25519 key of a Solana keypair through node:crypto (OpenSSL). */
export function signEd25519(signer: Keypair, message: Uint8Array): Buffer {
  const pkcs8 = Buffer.concat([
    Buffer.from("302e020100300506032b657004220420", "hex"),
    Buffer.from(signer.secretKey.subarray(0, 32)),
  ]);
  return sign(null, message, createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" }));
}

/** The Ed25519 program instruction verifying `signer`'s signature of `message`, all in its own data (web3.js). */
export function decisionInstruction(signer: Keypair, message: Uint8Array): TransactionInstruction {
  return Ed25519Program.createInstructionWithPublicKey({
    publicKey: signer.publicKey.toBytes(),
    message,
    signature: signEd25519(signer, message),
  });
}

/** One launch: who, which pair, which mint, and the decision fields a service would sign for it. */
export interface LaunchPlan {
  launcher: Keypair;
  mint: Keypair;
  name: string;
  ticker: string;
  expiresAt: bigint;
  nonce: Buffer;
  /** The decision the service signs: this launch's fields, allow; override any field to forge another. */
  fields: LaunchDecisionFields;
}

export function planLaunch(
  launchpad: LaunchpadProgram,
  registry: PublicKey,
  launcher: Keypair,
  pair: { name: string; ticker: string },
  expiresAt: bigint,
): LaunchPlan {
  const mint = Keypair.generate();
  const nonce = randomBytes(16);
  return {
    launcher,
    mint,
    ...pair,
    expiresAt,
    nonce,
    fields: {
      cluster: MAINNET_GENESIS,
      registryProgram: registry,
      launchpadProgram: launchpad.programId,
      nameHash: foldedHashBytes(foldV1(pair.name)),
      tickerHash: foldedHashBytes(foldV1(pair.ticker)),
      launcher: launcher.publicKey,
      mint: mint.publicKey,
      decision: "allow",
      expiresAt,
      nonce,
    },
  };
}

/** The accounts of launch (launch_registry_only takes them without `instructions`). */
export function launchAccounts(launchpad: LaunchpadProgram, registry: PublicKey, plan: LaunchPlan) {
  return {
    launcher: plan.launcher.publicKey,
    config: launchpadConfigAddress(launchpad.programId),
    mint: plan.mint.publicKey,
    registryConfig: configAddress(registry),
    reservation: reservationAddress(
      registry,
      foldedHashBytes(foldV1(plan.name)),
      foldedHashBytes(foldV1(plan.ticker)),
    ),
    registryProgram: registry,
    instructions: SYSVAR_INSTRUCTIONS_PUBKEY,
    systemProgram: SystemProgram.programId,
  };
}

export function launchInstruction(
  launchpad: LaunchpadProgram,
  registry: PublicKey,
  plan: LaunchPlan,
): Promise<TransactionInstruction> {
  return launchpad.methods
    .launch(plan.name, plan.ticker, new BN(plan.expiresAt.toString()), Array.from(plan.nonce))
    .accountsStrict(launchAccounts(launchpad, registry, plan))
    .instruction();
}

export function registryOnlyInstruction(
  launchpad: LaunchpadProgram,
  registry: PublicKey,
  plan: LaunchPlan,
): Promise<TransactionInstruction> {
  const { instructions: _signedOnly, ...accounts } = launchAccounts(launchpad, registry, plan);
  return launchpad.methods.launchRegistryOnly(plan.name, plan.ticker).accountsStrict(accounts).instruction();
}

/** The Ed25519 instruction of `plan`'s decision (as signed by `signer`, with any field overridden) and the launch. */
export async function signedLaunch(
  launchpad: LaunchpadProgram,
  registry: PublicKey,
  plan: LaunchPlan,
  signer: Keypair,
  overrides: Partial<LaunchDecisionFields> = {},
): Promise<[TransactionInstruction, TransactionInstruction]> {
  return [
    decisionInstruction(signer, launchDecisionMessage({ ...plan.fields, ...overrides })),
    await launchInstruction(launchpad, registry, plan),
  ];
}

/**
 * The instructions sysvar's data for `instructions` with `current` executing (the runtime's serialization):
 * u16 count, u16 offsets, per instruction u16 account count, (u8 flags, pubkey) per account, program id, u16 data
 * length, data; then the u16 current index.
 */
export function instructionsSysvarData(instructions: TransactionInstruction[], current: number): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 2 + 2 * instructions.length;
  for (const instruction of instructions) {
    offsets.push(offset);
    const accounts = instruction.keys.map((key) =>
      Buffer.concat([
        Buffer.from([(key.isSigner ? 1 : 0) | (key.isWritable ? 2 : 0)]),
        key.pubkey.toBuffer(),
      ]),
    );
    const part = Buffer.concat([
      u16(instruction.keys.length),
      ...accounts,
      instruction.programId.toBuffer(),
      u16(instruction.data.length),
      instruction.data,
    ]);
    parts.push(part);
    offset += part.length;
  }
  return Buffer.concat([u16(instructions.length), ...offsets.map(u16), ...parts, u16(current)]);
}

function u16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16LE(value);
  return bytes;
}

/** A registry fixture with a launchpad deployed and initialized beside it and one trusted decision signer. */
export interface LaunchpadFixture extends Fixture {
  launchpad: LaunchpadProgram;
  /** Trusted by the registry from DAY before START_TIME for 30 days. */
  decisionKey: Keypair;
}

export const DECISION_KEY_VALID_FROM = START_TIME - BigInt(DAY);
export const DECISION_KEY_VALID_UNTIL = START_TIME + 30n * BigInt(DAY);

interface LaunchpadSnapshot {
  state: Uint8Array;
  fixture: Fixture;
  launchpadId: PublicKey;
  decisionKey: Keypair;
}
let launchpadSnapshot: Promise<LaunchpadSnapshot> | null = null;

async function setUpLaunchpad(): Promise<LaunchpadSnapshot> {
  const fixture = await deployedRegistry();
  const launchpad = await deployLaunchpad(fixture.provider);
  await initializeMethod(launchpad, fixture.admin.publicKey, fixture.programId, MAINNET_GENESIS).rpc();
  const decisionKey = Keypair.generate();
  await fixture.program.methods
    .setDecisionSigner(
      decisionKey.publicKey,
      new BN(DECISION_KEY_VALID_FROM.toString()),
      new BN(DECISION_KEY_VALID_UNTIL.toString()),
    )
    .accountsStrict({ admin: fixture.admin.publicKey, config: configAddress(fixture.programId) })
    .rpc();
  return {
    state: fixture.provider.svm.svm.toBytes(),
    fixture,
    launchpadId: launchpad.programId,
    decisionKey,
  };
}

/** Each call gets its own copy of the deployed registry + launchpad state. */
export async function deployedLaunchpad(): Promise<LaunchpadFixture> {
  launchpadSnapshot ??= setUpLaunchpad();
  const { state, fixture, launchpadId, decisionKey } = await launchpadSnapshot;
  const provider = new LiteSvmProvider(new LiteSvmConnection(LiteSVM.fromBytes(state)), fixture.admin);
  return {
    ...fixture,
    provider,
    program: registryProgram(provider, fixture.programId),
    launchpad: launchpadProgram(provider, launchpadId),
    decisionKey,
  };
}

/**
 * An address lookup table holding `addresses`, written straight into the cluster (active, no authority): a v0
 * transaction through it carries large Ed25519 instructions that a legacy one cannot (1,232 bytes), as attackers do.
 */
export function plantLookupTable(fixture: Fixture, addresses: PublicKey[]): AddressLookupTableAccount {
  const key = Keypair.generate().publicKey;
  const meta = Buffer.alloc(56);
  meta.writeUInt32LE(1, 0); // LookupTable
  meta.writeBigUInt64LE(2n ** 64n - 1n, 4); // deactivation slot: never
  const data = Buffer.concat([meta, ...addresses.map((address) => address.toBuffer())]);
  fixture.provider.svm.svm.setAccount({
    address: key.toBase58(),
    data,
    executable: false,
    lamports: 1_000_000_000n,
    programAddress: AddressLookupTableProgram.programId.toBase58(),
    space: BigInt(data.length),
  } as never);
  return new AddressLookupTableAccount({ key, state: AddressLookupTableAccount.deserialize(data) });
}

/** Sends a v0 transaction through `table`, paid by `payer`, with Anchor's error decoding. */
export async function sendVersioned(
  fixture: Fixture,
  payer: Keypair,
  instructions: TransactionInstruction[],
  signers: Keypair[],
  table: AddressLookupTableAccount,
): Promise<string> {
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: fixture.provider.svm.svm.latestBlockhash(),
    instructions,
  }).compileToV0Message([table]);
  const transaction = new VersionedTransaction(message);
  transaction.sign([payer, ...signers.filter((signer) => !signer.publicKey.equals(payer.publicKey))]);
  try {
    return fixture.provider.svm.execute(transaction.serialize()).signature;
  } catch (error) {
    throw translateError(error, new Map());
  }
}
