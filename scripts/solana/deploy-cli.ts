// `npm run deploy:solana`: the identity_registry program on any Solana cluster over JSON-RPC, with the deploy code
// the localnet uses (deploy.ts), the sandbox's own deployment beside it, and the chain's entry merged into a
// deployment manifest, as `npm run deploy:evm` does for an EVM chain.
//   npm run deploy:solana -- [--rpc-url http://127.0.0.1:8899] [--ws-url ws://…] [--chain solana] [--out <manifest>]
//     [--keypair <file>] [--program-keypair <file>] [--price-update <address>] [--price-owner <address>]
//     [--min-commitment-slots <n>] [--max-confidence-bps <n>] [--without-sandbox]
// On a local cluster (an RPC on this machine) everything has a default: the localnet's dev deployer wallet (topped
// up from the validator's faucet), the committed development program keypair, and the program's own price account
// written by push_price. Another cluster needs the deployer, the program keypair and a Pyth price account named.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { AnchorProvider, Wallet } from "@coral-xyz/anchor";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from "@solana/web3.js";
import { DEFAULT_MANIFEST_PATH, writeManifestEntries } from "../../config/manifest";
import { ServiceError } from "../../core/errors/serviceError";
import { devWallet } from "../localnet/devWallets";
import { deployIdentityRegistry, manifestEntry } from "./deploy";
import {
  DEFAULT_MIN_COMMITMENT_SLOTS,
  LOCAL_MIN_COMMITMENT_SLOTS,
  PYTH_RECEIVER_PROGRAM_ID,
  type RegistrySettings,
  registrySettings,
} from "./registry";

/** What a local deployer is topped up to: the program and its sandbox deployment cost about 0.8 SOL. */
const LOCAL_DEPLOYER_LAMPORTS = 10 * LAMPORTS_PER_SOL;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

class DeployUsageError extends ServiceError {}

/** A cluster whose RPC runs on this machine: the only kind the public development keys and the local price suit. */
function isLocalCluster(rpcUrl: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(rpcUrl).hostname);
}

function readKeypair(path: string, flag: string): Keypair {
  try {
    return Keypair.fromSecretKey(Uint8Array.from(JSON.parse(readFileSync(path, "utf8")) as number[]));
  } catch (error) {
    throw new DeployUsageError(
      `${flag} ${path}: not a readable keypair file (a JSON array of 64 bytes, as solana-keygen writes): ${(error as Error).message}`,
    );
  }
}

function publicKeyOption(value: string, flag: string): PublicKey {
  try {
    return new PublicKey(value);
  } catch {
    throw new DeployUsageError(`${flag} must be a base58 public key, got "${value}".`);
  }
}

/** The flags another cluster needs that `values` lacks, each with what it names; a local cluster has defaults. */
function missingClusterFlags(values: Record<string, unknown>): string[] {
  const needed: [flag: string, what: string][] = [
    ["keypair", "<file>: the deployer's keypair (it pays, and becomes upgrade authority and admin)"],
    ["program-keypair", "<file>: the program's keypair (the committed development keypair is public)"],
    [
      "price-update",
      "<address>: the Pyth SOL/USD PriceUpdateV2 account (the program's own price account, written by push_price, is for local clusters only)",
    ],
  ];
  return needed.filter(([flag]) => values[flag] === undefined).map(([flag, what]) => `--${flag} ${what}`);
}

/** A whole number within `min..max` given as `flag`. */
function integerOption(value: string, flag: string, min: number, max: number): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
    throw new DeployUsageError(`${flag} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return parsed;
}

/** Settings reading the named price account, or undefined for the program's own local price account. */
function priceSettings(
  values: { "price-update"?: string; "price-owner"?: string },
  local: boolean,
): RegistrySettings | undefined {
  if (values["price-update"] === undefined) return undefined;
  const owner = values["price-owner"];
  return registrySettings(
    publicKeyOption(values["price-update"], "--price-update"),
    owner === undefined ? PYTH_RECEIVER_PROGRAM_ID : publicKeyOption(owner, "--price-owner"),
    local ? LOCAL_MIN_COMMITMENT_SLOTS : DEFAULT_MIN_COMMITMENT_SLOTS,
  );
}

/** --min-commitment-slots and --max-confidence-bps, when given. */
function settingOverrides(values: { "min-commitment-slots"?: string; "max-confidence-bps"?: string }) {
  const slots = values["min-commitment-slots"];
  const bps = values["max-confidence-bps"];
  return {
    ...(slots === undefined
      ? {}
      : { minCommitmentSlots: integerOption(slots, "--min-commitment-slots", 1, 1000) }),
    ...(bps === undefined ? {} : { maxConfidenceBps: integerOption(bps, "--max-confidence-bps", 1, 10_000) }),
  };
}

/** Tops a local deployer up from the validator's faucet (the localnet and solana-test-validator both answer). */
async function fundLocalDeployer(connection: Connection, deployer: PublicKey): Promise<void> {
  const balance = await connection.getBalance(deployer);
  if (balance >= LOCAL_DEPLOYER_LAMPORTS) return;
  const signature = await connection.requestAirdrop(deployer, LOCAL_DEPLOYER_LAMPORTS - balance);
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, "confirmed");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "rpc-url": { type: "string", default: "http://127.0.0.1:8899" },
      "ws-url": { type: "string" },
      chain: { type: "string", default: "solana" },
      out: { type: "string", default: DEFAULT_MANIFEST_PATH },
      keypair: { type: "string" },
      "program-keypair": { type: "string" },
      "price-update": { type: "string" },
      "price-owner": { type: "string" },
      "min-commitment-slots": { type: "string" },
      "max-confidence-bps": { type: "string" },
      "without-sandbox": { type: "boolean", default: false },
    },
  });
  const rpcUrl = values["rpc-url"];
  const local = isLocalCluster(rpcUrl);
  const missing = local ? [] : missingClusterFlags(values);
  if (missing.length > 0) {
    throw new DeployUsageError(
      `${rpcUrl} is not a local cluster: the local defaults (public development keys, the program's own price account) do not apply there; pass:\n  ${missing.join("\n  ")}`,
    );
  }
  const settings = priceSettings(values, local);
  const overrides = settingOverrides(values);
  const deployer =
    values.keypair === undefined ? devWallet("deployer").solana : readKeypair(values.keypair, "--keypair");
  const program =
    values["program-keypair"] === undefined
      ? undefined
      : readKeypair(values["program-keypair"], "--program-keypair");

  const connection = new Connection(rpcUrl, { commitment: "confirmed", wsEndpoint: values["ws-url"] });
  if (local) await fundLocalDeployer(connection, deployer.publicKey);
  const provider = new AnchorProvider(connection, new Wallet(deployer), { commitment: "confirmed" });
  const production = await deployIdentityRegistry(provider, { program, settings, overrides });
  // The sandbox's program gets a fresh id: nothing but this manifest entry refers to it.
  const sandbox = values["without-sandbox"]
    ? undefined
    : await deployIdentityRegistry(provider, { program: Keypair.generate(), settings, overrides });
  const entry = manifestEntry(values.chain, { rpcUrl, wsUrl: values["ws-url"] }, production, sandbox);
  writeManifestEntries(values.out, { solana: [entry] });
  process.stdout.write(`${JSON.stringify(entry)}\n`);
  const sandboxNote = sandbox ? `, sandbox program ${sandbox.programId}` : ", no sandbox program";
  console.error(
    `identity_registry ${production.programId} on ${rpcUrl} (slot ${production.deploySlot})${sandboxNote}; manifest: ${values.out}`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
