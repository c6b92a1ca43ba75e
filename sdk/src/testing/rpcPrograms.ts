// The guarded launch program deployed over a real RPC (a local validator) in a launchpad's tests, as `solana program
// deploy` does it: a loader buffer written in chunks, then deployed with the payer as upgrade authority (the
// program's initialize requires that signature), then initialized for a registry and a cluster.
import { type Connection, Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import { readProgram } from "./programFiles";
import { initializeLaunchpad } from "./programInstructions";
import { sendAndConfirmInstructions } from "./rpcTransactions";
import {
  BPF_LOADER_UPGRADEABLE,
  BUFFER_HEADER_BYTES,
  deployWithMaxDataLen,
  initializeBuffer,
  PROGRAM_ACCOUNT_BYTES,
  writeBuffer,
} from "./upgradeableLoader";

/** Program bytes per Write: keeps each transaction under the 1,232-byte packet limit. */
const WRITE_CHUNK_BYTES = 900;

export interface DeployGuardedLaunchpadProgramOptions {
  /** The identity registry program the launch program obeys. */
  registryProgram: PublicKey;
  /** The genesis hash (base58) the launch program accepts decisions for. Default: the RPC's cluster's. */
  cluster?: string;
  /** The program id's keypair. Default: a fresh one. */
  program?: Keypair;
}

/** `account`, created rent-exempt with `space` bytes for the loader to fill. */
async function loaderAccount(connection: Connection, payer: Keypair, account: Keypair, space: number) {
  return SystemProgram.createAccount({
    fromPubkey: payer.publicKey,
    newAccountPubkey: account.publicKey,
    lamports: await connection.getMinimumBalanceForRentExemption(space),
    space,
    programId: BPF_LOADER_UPGRADEABLE,
  });
}

/** A loader buffer holding `elf`, `authority` its writer. */
async function writtenBuffer(
  connection: Connection,
  authority: Keypair,
  elf: Uint8Array,
): Promise<PublicKey> {
  const buffer = Keypair.generate();
  const create = await loaderAccount(connection, authority, buffer, BUFFER_HEADER_BYTES + elf.length);
  const initialize = initializeBuffer(buffer.publicKey, authority.publicKey);
  await sendAndConfirmInstructions(connection, [create, initialize], [authority, buffer]);
  await writeChunks(connection, authority, buffer.publicKey, elf);
  return buffer.publicKey;
}

/** `elf` written into `buffer` one transaction per chunk; chunks are independent, so all are sent at once. */
async function writeChunks(connection: Connection, authority: Keypair, buffer: PublicKey, elf: Uint8Array) {
  const offsets = Array.from(
    { length: Math.ceil(elf.length / WRITE_CHUNK_BYTES) },
    (_, i) => i * WRITE_CHUNK_BYTES,
  );
  const write = (offset: number) =>
    writeBuffer(buffer, authority.publicKey, offset, elf.subarray(offset, offset + WRITE_CHUNK_BYTES));
  await Promise.all(
    offsets.map((offset) => sendAndConfirmInstructions(connection, [write(offset)], [authority])),
  );
}

/** Deploys `elf` at `program`'s id, `authority` paying and holding the upgrade authority. */
async function deployUpgradeable(
  connection: Connection,
  authority: Keypair,
  program: Keypair,
  elf: Uint8Array,
): Promise<void> {
  const buffer = await writtenBuffer(connection, authority, elf);
  const create = await loaderAccount(connection, authority, program, PROGRAM_ACCOUNT_BYTES);
  const { publicKey } = authority;
  const deploy = deployWithMaxDataLen(publicKey, program.publicKey, buffer, publicKey, elf.length);
  await sendAndConfirmInstructions(connection, [create, deploy], [authority, program]);
}

/**
 * Deploys the guarded launch program (programs/guarded_launchpad) through the upgradeable loader, `payer` its
 * upgrade authority and admin, and initializes it to obey `registryProgram` and accept decisions for `cluster`
 * only; resolves with its program id.
 */
export async function deployGuardedLaunchpadProgram(
  connection: Connection,
  payer: Keypair,
  options: DeployGuardedLaunchpadProgramOptions,
): Promise<PublicKey> {
  const program = options.program ?? Keypair.generate();
  const cluster = new PublicKey(options.cluster ?? (await connection.getGenesisHash()));
  await deployUpgradeable(connection, payer, program, readProgram("guarded_launchpad"));
  await sendAndConfirmInstructions(
    connection,
    [initializeLaunchpad(program.publicKey, payer.publicKey, options.registryProgram, cluster)],
    [payer],
  );
  return program.publicKey;
}
