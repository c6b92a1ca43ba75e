// Guardian actions: block an identity (temporary, until cleared, or permanently as graduated) and clear a
// mistaken block. Audited with actor and reason; they appear in the identity's status timeline.
import { blockIdentity, clearIdentity } from "../../../services/identity/guardian";
import { defineCommand, type OperatorCommand, UsageError } from "../command";
import { ACTOR_FLAGS, actorOf, environmentFlag, type Flags, optionalFlag, requiredFlag } from "../flags";

function untilOf(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const until = new Date(value);
  if (Number.isNaN(until.getTime()))
    throw new UsageError("--until must be an ISO 8601 date-time, e.g. 2026-12-01T00:00:00Z.");
  return until;
}

function chainOf(flags: Flags): { chain?: string } {
  const chain = optionalFlag(flags, "chain");
  return chain === undefined ? {} : { chain };
}

const IDENTITY_FLAGS = {
  key: { value: "NAME::TICKER", help: "the folded identity key" },
  environment: { value: "sandbox|production", help: "which environment's identity" },
  chain: { value: "chain", help: "only on this chain (default: every chain)" },
  ...ACTOR_FLAGS,
};

const block = defineCommand({
  name: "guardian:block",
  summary: "Block an identity for every launcher (--graduated: permanently; --until: temporarily).",
  usage:
    "guardian:block --key NAME::TICKER --environment sandbox|production [--chain <chain>] [--graduated | --until <ISO>] --actor <who> --reason <why>",
  flags: {
    ...IDENTITY_FLAGS,
    graduated: { help: "block permanently (graduated)" },
    until: { value: "ISO date-time", help: "block until then" },
  },
  async run(flags, { pool, out }) {
    const identityKey = requiredFlag(flags, "key", "the folded identity key, e.g. MOONBADGER::BADGER");
    const until = untilOf(optionalFlag(flags, "until"));
    await blockIdentity(
      pool,
      {
        environment: environmentFlag(flags),
        identityKey,
        ...chainOf(flags),
        graduated: flags.get("graduated") === true,
        ...(until === undefined ? {} : { until }),
      },
      actorOf(flags),
    );
    out(`Blocked ${identityKey}.`);
    return { blocked: identityKey };
  },
});

const clear = defineCommand({
  name: "guardian:clear",
  summary: "Clear a mistaken block (emits identity.cleared).",
  usage:
    "guardian:clear --key NAME::TICKER --environment sandbox|production [--chain <chain>] --actor <who> --reason <why>",
  flags: IDENTITY_FLAGS,
  async run(flags, { pool, out }) {
    const identityKey = requiredFlag(flags, "key", "the folded identity key");
    await clearIdentity(
      pool,
      { environment: environmentFlag(flags), identityKey, ...chainOf(flags) },
      actorOf(flags),
    );
    out(`Cleared ${identityKey}.`);
    return { cleared: identityKey };
  },
});

export const commands: OperatorCommand[] = [block, clear];
