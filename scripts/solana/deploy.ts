// Deploys the identity_registry program through the BPF Upgradeable Loader (InitializeBuffer, Write,
// DeployWithMaxDataLen) with any Anchor `Provider`: an `AnchorProvider` over a JSON-RPC `Connection`, or the
// in-process `LiteSvmProvider`. The provider's wallet pays and becomes the upgrade authority.
import type { Provider } from "@coral-xyz/anchor";
import {
  type Keypair,
  Keypair as KeypairClass,
  PublicKey,
  SystemProgram,
  Transaction,
} from "@solana/web3.js";
import type { SolanaManifestEntry } from "../../config/manifest";
import { ServiceError } from "../../core/errors/serviceError";
import {
  configAddress,
  initializeRegistry,
  type LocalPrice,
  loadLocalProgramKeypair,
  loadProgramBytes,
  localSettings,
  pushLocalPrice,
  type RegistrySettings,
  registryProgram,
} from "./registry";
import {
  BPF_LOADER_UPGRADEABLE_ID,
  BUFFER_METADATA_SIZE,
  deployWithMaxDataLenInstruction,
  initializeBufferInstruction,
  PROGRAM_ACCOUNT_SIZE,
  PROGRAM_DATA_METADATA_SIZE,
  programDataAddress,
  writeInstruction,
} from "./upgradeable-loader";

/** Program bytes per Write instruction: keeps each transaction under the 1232-byte packet limit. */
const WRITE_CHUNK = 900;

export class ProgramAlreadyDeployedError extends ServiceError {
  constructor(programId: string) {
    super(`program ${programId} is already deployed; use a new program keypair or upgrade it instead`);
  }
}

export interface DeployProgramOptions {
  program: Keypair;
  bytes: Uint8Array;
  /** Room for later upgrades; defaults to twice the program size. */
  maxDataLen?: number;
}

export interface DeployedProgram {
  programId: string;
  programData: string;
  deploySlot: number;
}

/** The program-data room a deploy allocates: the given one, else twice the program. */
export function maxDataLenOf(options: DeployProgramOptions): number {
  return options.maxDataLen ?? options.bytes.length * 2;
}

function payerOf(provider: Provider) {
  if (!provider.publicKey || !provider.sendAndConfirm) {
    throw new TypeError("the provider needs a wallet (publicKey) and sendAndConfirm to deploy");
  }
  return { payer: provider.publicKey, send: provider.sendAndConfirm.bind(provider) };
}

export async function deployProgram(
  provider: Provider,
  options: DeployProgramOptions,
): Promise<DeployedProgram> {
  const { payer, send } = payerOf(provider);
  const connection = provider.connection;
  const programId = options.program.publicKey;
  if (await connection.getAccountInfo(programId)) throw new ProgramAlreadyDeployedError(programId.toBase58());
  const buffer = KeypairClass.generate();
  const bufferSize = BUFFER_METADATA_SIZE + options.bytes.length;
  const maxDataLen = maxDataLenOf(options);

  await send(
    new Transaction().add(
      SystemProgram.createAccount({
        fromPubkey: payer,
        newAccountPubkey: buffer.publicKey,
        lamports: await connection.getMinimumBalanceForRentExemption(bufferSize),
        space: bufferSize,
        programId: BPF_LOADER_UPGRADEABLE_ID,
      }),
      initializeBufferInstruction(buffer.publicKey, payer),
    ),
    [buffer],
  );
  for (let offset = 0; offset < options.bytes.length; offset += WRITE_CHUNK) {
    const chunk = options.bytes.subarray(offset, offset + WRITE_CHUNK);
    await send(new Transaction().add(writeInstruction(buffer.publicKey, payer, offset, chunk)), []);
  }
  await send(
    new Transaction().add(
      SystemProgram.createAccount({
        fromPubkey: payer,
        newAccountPubkey: programId,
        lamports: await connection.getMinimumBalanceForRentExemption(PROGRAM_ACCOUNT_SIZE),
        space: PROGRAM_ACCOUNT_SIZE,
        programId: BPF_LOADER_UPGRADEABLE_ID,
      }),
      deployWithMaxDataLenInstruction({
        payer,
        programId,
        buffer: buffer.publicKey,
        authority: payer,
        maxDataLen,
      }),
    ),
    [options.program],
  );
  const programData = programDataAddress(programId);
  const programDataAccount = await connection.getAccountInfo(programData);
  if (!programDataAccount || programDataAccount.data.length < PROGRAM_DATA_METADATA_SIZE) {
    throw new Error(`deploy of ${programId.toBase58()} did not create its program-data account`);
  }
  return {
    programId: programId.toBase58(),
    programData: programData.toBase58(),
    deploySlot: Number(Buffer.from(programDataAccount.data).readBigUInt64LE(4)),
  };
}

export interface RegistryDeployment {
  programId: string;
  configAccount: string;
  priceAccount: string;
  deploySlot: number;
  /** The cluster's: on-chain launch decisions are signed for it (config/manifest.ts). */
  genesisHash: string;
}

export interface DeployRegistryOptions {
  /** Defaults to the committed local development keypair. */
  program?: Keypair;
  /** Defaults to the committed programs/identity_registry/build/identity_registry.so. */
  bytes?: Uint8Array;
  /** Defaults to local settings: the program-owned price PDA written by push_price, 1-slot commitments. */
  settings?: RegistrySettings;
  /** Replaces these fields of the settings (given or local): the commitment age and the price confidence bound. */
  overrides?: Partial<Pick<RegistrySettings, "minCommitmentSlots" | "maxConfidenceBps">>;
  /** Local price to write when the settings are local; defaults to $150/SOL published now. */
  localPrice?: LocalPrice;
  /**
   * Puts the program on the chain; defaults to deployProgram (the loader's transactions, paid by the provider's
   * wallet, whose key becomes the upgrade authority). The local chain loads it directly instead.
   */
  placeProgram?: (options: DeployProgramOptions) => Promise<DeployedProgram>;
}

/** Deploys the program, initializes its config and, for local settings, writes the price account. */
export async function deployIdentityRegistry(
  provider: Provider,
  options: DeployRegistryOptions = {},
): Promise<RegistryDeployment> {
  const place = options.placeProgram ?? ((program) => deployProgram(provider, program));
  const deployed = await place({
    program: options.program ?? loadLocalProgramKeypair(),
    bytes: options.bytes ?? loadProgramBytes(),
  });
  const programId = new PublicKey(deployed.programId);
  const program = registryProgram(provider, programId);
  const settings = { ...(options.settings ?? localSettings(programId)), ...options.overrides };
  await initializeRegistry(program, settings);
  if (settings.priceOwner.equals(programId)) {
    await pushLocalPrice(program, options.localPrice ?? (await currentLocalPrice(provider)));
  }
  return {
    programId: deployed.programId,
    configAccount: configAddress(programId).toBase58(),
    priceAccount: settings.priceUpdate.toBase58(),
    deploySlot: deployed.deploySlot,
    genesisHash: await provider.connection.getGenesisHash(),
  };
}

/**
 * The manifest entry of a deployment; `wsUrl` only when the RPC has a websocket, and `sandbox` when the sandbox's
 * own deployment was made beside it.
 */
export function manifestEntry(
  chain: string,
  endpoints: { rpcUrl: string; wsUrl?: string | undefined },
  deployment: RegistryDeployment,
  sandbox?: RegistryDeployment,
): SolanaManifestEntry {
  const { rpcUrl, wsUrl } = endpoints;
  return {
    chain,
    rpcUrl,
    ...(wsUrl === undefined ? {} : { wsUrl }),
    ...deployment,
    ...(sandbox === undefined
      ? {}
      : {
          sandbox: {
            programId: sandbox.programId,
            configAccount: sandbox.configAccount,
            priceAccount: sandbox.priceAccount,
          },
        }),
  };
}

/** $150/SOL published at the cluster's current block time (wall clock when the RPC has none). */
async function currentLocalPrice(provider: Provider): Promise<LocalPrice> {
  const slot = await provider.connection.getSlot();
  const blockTime = await provider.connection.getBlockTime(slot).catch(() => null);
  return { price: 150_00000000n, exponent: -8, publishTime: blockTime ?? Math.floor(Date.now() / 1000) };
}

/**
 * Refreshes the local price account (local clusters: call it before the price gets older than its max age).
 * Returns the transaction signature, or "already-published" when an identical push landed moments before.
 */
export async function refreshLocalPrice(
  provider: Provider,
  programId: string,
  price?: LocalPrice,
): Promise<string> {
  const program = registryProgram(provider, new PublicKey(programId));
  try {
    return await pushLocalPrice(program, price ?? (await currentLocalPrice(provider)));
  } catch (error) {
    // Two refreshes within one block time push byte-identical transactions; the first already published it.
    if (error instanceof Error && /already been processed/i.test(error.message)) return "already-published";
    throw error;
  }
}
