// Sandbox: restore the seven seeded scenarios (they are also seeded on the first decision request).
import { join } from "node:path";
import { manifestChains, mergeChains, readCheckpoints } from "../../../api/decisions/chainCatalogue";
import { seedSandboxScenarios } from "../../../api/decisions/sandbox";
import { SANDBOX_DESIGNATED_LAUNCHER } from "../../../core/status";
import { type OperatorCommand, UsageError } from "../command";
import { actorOf, parseFlags } from "../flags";

const restore: OperatorCommand = {
  name: "sandbox:restore",
  summary: "Restore the seven seeded sandbox scenarios (SANDBOXFOX … NIGHTSHADE) on every chain, as of now.",
  usage: "sandbox:restore --actor <who> --reason <why>",
  async run(args, { pool, config, out }) {
    const by = actorOf(parseFlags(args));
    const chains = mergeChains(
      manifestChains(join(config.dataDir, "deployments", "local.json")),
      await readCheckpoints(pool),
    );
    if (chains.length === 0)
      throw new UsageError("No chains are known yet: deploy (npm run localnet) or start the indexers first.");
    const keys = await seedSandboxScenarios(pool, chains);
    await pool.query(
      "INSERT INTO audit_log (actor, action, subject, reason, details) VALUES ($1, 'sandbox.restore', 'sandbox', $2, $3)",
      [by.actor, by.reason, JSON.stringify({ chains: chains.map((entry) => entry.chain), identities: keys })],
    );
    out(`Restored ${keys.length} scenarios on ${chains.map((entry) => entry.chain).join(", ")}.`);
    out(
      `Designated SANDBOXFOX launcher: EVM ${SANDBOX_DESIGNATED_LAUNCHER.evm}, Solana ${SANDBOX_DESIGNATED_LAUNCHER.solana}`,
    );
  },
};

export const commands: OperatorCommand[] = [restore];
