// The embed allowlist: which public `launchpad` values may prepare reservations from a browser, and for whom.
import {
  allowEmbedLaunchpad,
  disableEmbedLaunchpad,
  listEmbedLaunchpads,
} from "../../../services/reservations/embedLaunchpads";
import { type OperatorCommand, UsageError } from "../command";
import { actorOf, parseFlags, requiredFlag } from "../flags";

const allow: OperatorCommand = {
  name: "embed:allow",
  summary:
    "Allow a launchpad to use the embed reservation endpoints; its fees are attributed to the partner.",
  usage: "embed:allow --launchpad <id> --partner <partner_id> --actor <who> --reason <why>",
  async run(args, { pool, out }) {
    const flags = parseFlags(args);
    const launchpad = requiredFlag(flags, "launchpad", "the public launchpad identifier, e.g. moonpad");
    const partnerId = requiredFlag(
      flags,
      "partner",
      "the partner id fees are attributed to (see api-keys:list)",
    );
    try {
      await allowEmbedLaunchpad(pool, launchpad, partnerId, actorOf(flags));
    } catch (error) {
      if (error instanceof TypeError) throw new UsageError(error.message);
      throw error;
    }
    out(`Launchpad ${launchpad} may now prepare embedded reservations for partner ${partnerId}.`);
  },
};

const disable: OperatorCommand = {
  name: "embed:disable",
  summary: "Stop a launchpad's embedded reservations at once.",
  usage: "embed:disable --launchpad <id> --actor <who> --reason <why>",
  async run(args, { pool, out }) {
    const flags = parseFlags(args);
    const launchpad = requiredFlag(flags, "launchpad", "the launchpad identifier (see embed:list)");
    if (!(await disableEmbedLaunchpad(pool, launchpad, actorOf(flags)))) {
      throw new UsageError(`Launchpad ${launchpad} is not allowed (see embed:list).`);
    }
    out(`Launchpad ${launchpad} disabled.`);
  },
};

const list: OperatorCommand = {
  name: "embed:list",
  summary: "List allowlisted embed launchpads.",
  usage: "embed:list",
  async run(_args, { pool, out }) {
    for (const entry of await listEmbedLaunchpads(pool)) {
      out(
        `${entry.launchpad}  ${entry.partnerId}  ${entry.disabledAt ? `disabled ${entry.disabledAt.toISOString()}` : "active"}`,
      );
    }
  },
};

export const commands: OperatorCommand[] = [allow, disable, list];
