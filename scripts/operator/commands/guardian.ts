// Guardian actions: block an identity (temporary, until cleared, or permanently as graduated) and clear a
// mistaken block. Audited with actor and reason; they appear in the identity's status timeline.
import { blockIdentity, clearIdentity } from "../../../services/identity/guardian";
import { type OperatorCommand, UsageError } from "../command";
import { actorOf, environmentFlag, parseFlags, requiredFlag } from "../flags";

function untilOf(value: string | true | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const until = typeof value === "string" ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(until.getTime()))
    throw new UsageError("--until must be an ISO 8601 date-time, e.g. 2026-12-01T00:00:00Z.");
  return until;
}

function chainOf(value: string | true | undefined): { chain?: string } {
  if (value === true) throw new UsageError("--chain needs a chain name.");
  return value === undefined ? {} : { chain: value };
}

const block: OperatorCommand = {
  name: "guardian:block",
  summary: "Block an identity for every launcher (--graduated: permanently; --until: temporarily).",
  usage:
    "guardian:block --key NAME::TICKER --environment sandbox|production [--chain <chain>] [--graduated | --until <ISO>] --actor <who> --reason <why>",
  async run(args, { pool, out }) {
    const flags = parseFlags(args);
    const identityKey = requiredFlag(flags, "key", "the folded identity key, e.g. MOONBADGER::BADGER");
    const until = untilOf(flags.get("until"));
    await blockIdentity(
      pool,
      {
        environment: environmentFlag(flags),
        identityKey,
        ...chainOf(flags.get("chain")),
        graduated: flags.get("graduated") === true,
        ...(until === undefined ? {} : { until }),
      },
      actorOf(flags),
    );
    out(`Blocked ${identityKey}.`);
  },
};

const clear: OperatorCommand = {
  name: "guardian:clear",
  summary: "Clear a mistaken block (emits identity.cleared).",
  usage:
    "guardian:clear --key NAME::TICKER --environment sandbox|production [--chain <chain>] --actor <who> --reason <why>",
  async run(args, { pool, out }) {
    const flags = parseFlags(args);
    const identityKey = requiredFlag(flags, "key", "the folded identity key");
    await clearIdentity(
      pool,
      { environment: environmentFlag(flags), identityKey, ...chainOf(flags.get("chain")) },
      actorOf(flags),
    );
    out(`Cleared ${identityKey}.`);
  },
};

export const commands: OperatorCommand[] = [block, clear];
