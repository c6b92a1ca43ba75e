// `npm run localnet`: local chains with both registries deployed, until Ctrl-C.
// Options (or environment): --evm-port (LOCALNET_EVM_PORT, 8545), --solana-port (LOCALNET_SOLANA_PORT,
// 8899), --solana-ws-port (LOCALNET_SOLANA_WS_PORT, RPC port + 1), --slot-ms (LOCALNET_SLOT_MS, 400),
// --manifest (LOCALNET_MANIFEST, data/deployments/local.json).
import { parseArgs } from "node:util";
import { ServiceError } from "../../core/errors/serviceError";
import {
  ChainStartError,
  DEFAULT_MANIFEST_PATH,
  LOCAL_EVM_BLOCK_MS,
  type Localnet,
  PortInUseError,
  startLocalnet,
} from ".";

class UsageError extends ServiceError {}

function portOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`${name} must be a port number from 0 to 65535, got "${value}".`);
  }
  return port;
}

function readOptions() {
  const { values } = parseArgs({
    options: {
      "evm-port": { type: "string", default: process.env.LOCALNET_EVM_PORT },
      "solana-port": { type: "string", default: process.env.LOCALNET_SOLANA_PORT },
      "solana-ws-port": { type: "string", default: process.env.LOCALNET_SOLANA_WS_PORT },
      "slot-ms": { type: "string", default: process.env.LOCALNET_SLOT_MS },
      manifest: { type: "string", default: process.env.LOCALNET_MANIFEST || DEFAULT_MANIFEST_PATH },
    },
  });
  const slotMs = values["slot-ms"] ? Number(values["slot-ms"]) : undefined;
  if (slotMs !== undefined && !(Number.isInteger(slotMs) && slotMs >= 10)) {
    throw new UsageError(`--slot-ms must be an integer of at least 10, got "${values["slot-ms"]}".`);
  }
  return {
    evmPort: portOption(values["evm-port"], "--evm-port"),
    solanaPort: portOption(values["solana-port"], "--solana-port"),
    solanaWsPort: portOption(values["solana-ws-port"], "--solana-ws-port"),
    slotMs,
    manifestPath: values.manifest,
  };
}

function screen(localnet: Localnet, manifestPath: string): string {
  const [evm] = localnet.manifest.evm;
  const [solana] = localnet.manifest.solana;
  const rows: [string, string][] = [
    ["EVM RPC", `${evm?.rpcUrl} (websocket ${evm?.wsUrl}, chain id ${evm?.chainId}, Hardhat node)`],
    ["  IdentityRegistry", `${evm?.registry} (deploy block ${evm?.deployBlock})`],
    ["  Price feed", `${evm?.priceFeed}`],
    ["Solana RPC", `${solana?.rpcUrl} (websocket ${solana?.wsUrl}, litesvm)`],
    ["  Program", `${solana?.programId} (deploy slot ${solana?.deploySlot})`],
    ["  Config", `${solana?.configAccount}`],
    ["  Price account", `${solana?.priceAccount}`],
    ["Manifest", manifestPath],
    ...localnet.wallets.map((wallet): [string, string] => [
      `Dev wallet ${wallet.name}`,
      `solana ${wallet.solana.publicKey.toBase58()}  evm ${wallet.evm.address}`,
    ]),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    "",
    "Local chains are running. Ctrl-C stops them.",
    "",
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    "",
    "  Dev wallet keys derive from public seeds (localnet/devWallets.ts): local use only.",
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const options = readOptions();
  const localnet = await startLocalnet({
    ...options,
    evmBlockMs: LOCAL_EVM_BLOCK_MS,
    log: (line) => console.error(line),
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.error("Stopping the local chains...");
    localnet.stop().then(
      () => process.exit(0),
      (error: Error) => {
        console.error(`Could not stop cleanly: ${error.message}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  console.log(screen(localnet, options.manifestPath));
}

main().catch((error: Error) => {
  const known =
    error instanceof PortInUseError || error instanceof ChainStartError || error instanceof UsageError;
  console.error(known ? error.message : `Could not start the local chains: ${error.stack ?? error.message}`);
  process.exit(1);
});
