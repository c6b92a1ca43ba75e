// Reporting credentials: keeper credentials for production bonded/milestone events (X-Service-Keeper) and
// the per-key grant that lets a production key report launches.
import {
  issueKeeperCredential,
  listKeeperCredentials,
  revokeKeeperCredential,
  setLaunchReporting,
} from "../../../services/identity/keeperCredentials";
import type { OperatorCommand } from "../command";
import { actorOf, parseFlags, requiredFlag } from "../flags";

const issue: OperatorCommand = {
  name: "keepers:issue",
  summary: "Issue a keeper credential (X-Service-Keeper) to a partner; shown once.",
  usage: "keepers:issue --partner <partner_id> --label <text> --actor <who> --reason <why>",
  async run(args, { pool, out }) {
    const flags = parseFlags(args);
    const partnerId = requiredFlag(
      flags,
      "partner",
      "the partner id the keeper reports for (see api-keys:list)",
    );
    const label = requiredFlag(flags, "label", "what the keeper is, e.g. bonding watcher");
    const { keeperId, credential } = await issueKeeperCredential(pool, partnerId, label, actorOf(flags));
    out(`keeperId    ${keeperId}`);
    out(`credential  ${credential}`);
    out(
      "The credential is shown once and stored only as a hash; hand it to the partner over a secure channel now.",
    );
  },
};

const list: OperatorCommand = {
  name: "keepers:list",
  summary: "List keeper credentials (never their secrets).",
  usage: "keepers:list",
  async run(_args, { pool, out }) {
    for (const keeper of await listKeeperCredentials(pool)) {
      const state = keeper.revokedAt ? `revoked ${keeper.revokedAt.toISOString()}` : "active";
      out(`${keeper.keeperId}  ${keeper.partnerId}  ${state}  ${keeper.label}`);
    }
  },
};

const revoke: OperatorCommand = {
  name: "keepers:revoke",
  summary: "Revoke a keeper credential at once.",
  usage: "keepers:revoke --keeper <keeperId> --actor <who> --reason <why>",
  async run(args, { pool, out }) {
    const flags = parseFlags(args);
    const keeperId = requiredFlag(flags, "keeper", "the keeper id (see keepers:list)");
    await revokeKeeperCredential(pool, keeperId, actorOf(flags));
    out(`Revoked keeper ${keeperId}.`);
  },
};

const launchReporting = (enabled: boolean): OperatorCommand => ({
  name: enabled ? "launch-reporting:enable" : "launch-reporting:disable",
  summary: enabled
    ? "Let a production API key report launches (POST /v1/launches/report)."
    : "Stop a production API key from reporting launches (403 launch_reporting_restricted).",
  usage: `launch-reporting:${enabled ? "enable" : "disable"} --key-id <keyId> --actor <who> --reason <why>`,
  async run(args, { pool, out }) {
    const flags = parseFlags(args);
    const keyId = requiredFlag(flags, "key-id", "the API key id (see api-keys:list)");
    await setLaunchReporting(pool, keyId, enabled, actorOf(flags));
    out(`Launch reporting ${enabled ? "enabled" : "disabled"} for ${keyId}.`);
  },
});

export const commands: OperatorCommand[] = [
  issue,
  list,
  revoke,
  launchReporting(true),
  launchReporting(false),
];
