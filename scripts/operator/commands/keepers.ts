// Reporting credentials: keeper credentials for production bonded/milestone events (X-Service-Keeper) and
// the per-key grant that lets a production key report launches.
import {
  issueKeeperCredential,
  listKeeperCredentials,
  revokeKeeperCredential,
  setLaunchReporting,
} from "../../../services/identity/keeperCredentials";
import { defineCommand, type OperatorCommand } from "../command";
import { ACTOR_FLAGS, actorOf, requiredFlag } from "../flags";

const issue = defineCommand({
  name: "keepers:issue",
  summary: "Issue a keeper credential (X-Service-Keeper) to a partner; shown once.",
  usage: "keepers:issue --partner <partner_id> --label <text> --actor <who> --reason <why>",
  flags: {
    partner: { value: "partner_id", help: "the partner the keeper reports for" },
    label: { value: "text", help: "what the keeper is" },
    ...ACTOR_FLAGS,
  },
  async run(flags, { pool, out }) {
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
    return { keeperId, partnerId, credential };
  },
});

const list = defineCommand({
  name: "keepers:list",
  summary: "List keeper credentials (never their secrets).",
  usage: "keepers:list",
  flags: {},
  async run(_flags, { pool, out }) {
    const keepers = await listKeeperCredentials(pool);
    for (const keeper of keepers) {
      const state = keeper.revokedAt ? `revoked ${keeper.revokedAt.toISOString()}` : "active";
      out(`${keeper.keeperId}  ${keeper.partnerId}  ${state}  ${keeper.label}`);
    }
    return keepers;
  },
});

const revoke = defineCommand({
  name: "keepers:revoke",
  summary: "Revoke a keeper credential at once.",
  usage: "keepers:revoke --keeper <keeperId> --actor <who> --reason <why>",
  flags: { keeper: { value: "keeperId", help: "the keeper id (see keepers:list)" }, ...ACTOR_FLAGS },
  async run(flags, { pool, out }) {
    const keeperId = requiredFlag(flags, "keeper", "the keeper id (see keepers:list)");
    await revokeKeeperCredential(pool, keeperId, actorOf(flags));
    out(`Revoked keeper ${keeperId}.`);
    return { keeperId, revoked: true };
  },
});

const launchReporting = (enabled: boolean): OperatorCommand =>
  defineCommand({
    name: enabled ? "launch-reporting:enable" : "launch-reporting:disable",
    summary: enabled
      ? "Let a production API key report launches (POST /v1/launches/report)."
      : "Stop a production API key from reporting launches (403 launch_reporting_restricted).",
    usage: `launch-reporting:${enabled ? "enable" : "disable"} --key-id <keyId> --actor <who> --reason <why>`,
    flags: { "key-id": { value: "keyId", help: "the API key id (see api-keys:list)" }, ...ACTOR_FLAGS },
    async run(flags, { pool, out }) {
      const keyId = requiredFlag(flags, "key-id", "the API key id (see api-keys:list)");
      await setLaunchReporting(pool, keyId, enabled, actorOf(flags));
      out(`Launch reporting ${enabled ? "enabled" : "disabled"} for ${keyId}.`);
      return { keyId, launchReporting: enabled };
    },
  });

export const commands: OperatorCommand[] = [
  issue,
  list,
  revoke,
  launchReporting(true),
  launchReporting(false),
];
