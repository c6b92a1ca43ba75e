// Launchpad ids bound to partners: a partner may sign and report only its own ids (docs/decisions.md).
import { bindLaunchpad, listLaunchpads, unbindLaunchpad } from "../../../services/partners/launchpads";
import { defineCommand, type OperatorCommand, UsageError } from "../command";
import { ACTOR_FLAGS, actorOf, requiredFlag } from "../flags";

const LAUNCHPAD = { value: "id", help: "the launchpad id partners send, e.g. moonpad" };

const bind = defineCommand({
  name: "launchpads:bind",
  summary:
    "Bind a launchpad id to a partner in both environments (replaces a sandbox claim or an earlier binding).",
  usage: "launchpads:bind --launchpad <id> --partner <partner_id> --actor <who> --reason <why>",
  flags: {
    launchpad: LAUNCHPAD,
    partner: { value: "partner_id", help: "the partner that owns it" },
    ...ACTOR_FLAGS,
  },
  async run(flags, { pool, out }) {
    const launchpad = requiredFlag(flags, "launchpad", "the launchpad id partners send, e.g. moonpad");
    const partnerId = requiredFlag(flags, "partner", "the partner id that owns it (see api-keys:list)");
    try {
      await bindLaunchpad(pool, launchpad, partnerId, actorOf(flags));
    } catch (error) {
      if (error instanceof TypeError) throw new UsageError(error.message);
      throw error;
    }
    out(
      `Launchpad ${launchpad} is bound to partner ${partnerId}; other partners' use of it is refused (403).`,
    );
    return { launchpad, partnerId, bound: true };
  },
});

const unbind = defineCommand({
  name: "launchpads:unbind",
  summary:
    "Remove a launchpad id's bindings: production refuses it until bound again, the sandbox lets it be claimed.",
  usage: "launchpads:unbind --launchpad <id> --actor <who> --reason <why>",
  flags: { launchpad: LAUNCHPAD, ...ACTOR_FLAGS },
  async run(flags, { pool, out }) {
    const launchpad = requiredFlag(flags, "launchpad", "the launchpad id (see launchpads:list)");
    if (!(await unbindLaunchpad(pool, launchpad, actorOf(flags)))) {
      throw new UsageError(`Launchpad ${launchpad} is not bound (see launchpads:list).`);
    }
    out(`Launchpad ${launchpad} unbound.`);
    return { launchpad, unbound: true };
  },
});

const list = defineCommand({
  name: "launchpads:list",
  summary: "List launchpad ids with their partner per environment (operator bindings and sandbox claims).",
  usage: "launchpads:list",
  flags: {},
  async run(_flags, { pool, out }) {
    const entries = await listLaunchpads(pool);
    for (const entry of entries) {
      out(
        `${entry.launchpad}  ${entry.environment}  ${entry.partnerId}  ${entry.source}  ${entry.boundAt.toISOString()}`,
      );
    }
    return entries;
  },
});

export const commands: OperatorCommand[] = [bind, unbind, list];
