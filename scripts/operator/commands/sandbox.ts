// Sandbox: restore the seven seeded scenarios (they are also seeded on the first decision request).
import { existsSync } from "node:fs";
import { type Config, manifestPathOf } from "../../../config";
import { readManifest } from "../../../config/manifest";
import { SANDBOX_DESIGNATED_LAUNCHER } from "../../../core/status";
import {
  type ChainInfo,
  manifestChains,
  mergeChains,
  readCheckpoints,
} from "../../../services/mirror/chainCatalogue";
import { restoreSandboxScenarios } from "../../../services/sandbox/sandbox";
import { type OperatorCommand, UsageError } from "../command";
import { actorOf, parseFlags } from "../flags";

/** Chains of DEPLOYMENT_MANIFEST; without it, of the local manifest once `npm start` has written one. */
function configuredChains(config: Config): ChainInfo[] {
  const path = manifestPathOf(config);
  if (config.chains.manifestPath === undefined && !existsSync(path)) return [];
  return manifestChains(readManifest(path));
}

const restore: OperatorCommand = {
  name: "sandbox:restore",
  summary: "Restore the seven seeded sandbox scenarios (SANDBOXFOX … NIGHTSHADE) on every chain, as of now.",
  usage: "sandbox:restore --actor <who> --reason <why>",
  async run(args, { pool, config, out }) {
    const by = actorOf(parseFlags(args));
    const chains = mergeChains(configuredChains(config), await readCheckpoints(pool));
    if (chains.length === 0)
      throw new UsageError("No chains are known yet: deploy (npm run localnet) or start the indexers first.");
    const keys = await restoreSandboxScenarios(pool, chains, by);
    out(`Restored ${keys.length} scenarios on ${chains.map((entry) => entry.chain).join(", ")}.`);
    out(
      `Designated SANDBOXFOX launcher: EVM ${SANDBOX_DESIGNATED_LAUNCHER.evm}, Solana ${SANDBOX_DESIGNATED_LAUNCHER.solana}`,
    );
  },
};

export const commands: OperatorCommand[] = [restore];
