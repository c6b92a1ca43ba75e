// The embed allowlist: which public `launchpad` values may prepare reservations from a browser, for whom, and
// from which web origins (the embed endpoints answer CORS only for those).
import {
  addEmbedOrigin,
  allowEmbedLaunchpad,
  disableEmbedLaunchpad,
  listEmbedLaunchpads,
  removeEmbedOrigin,
} from "../../../services/reservations/embedLaunchpads";
import { defineCommand, type OperatorCommand, UsageError } from "../command";
import { ACTOR_FLAGS, actorOf, requiredFlag } from "../flags";

const LAUNCHPAD = { value: "id", help: "the public launchpad identifier" };
const ORIGIN = { value: "https://host[:port]", help: "the web origin of the launchpad's pages" };

const allow = defineCommand({
  name: "embed:allow",
  summary:
    "Allow a launchpad to use the embed reservation endpoints and bind its id to the partner its fees are attributed to (as launchpads:bind).",
  usage: "embed:allow --launchpad <id> --partner <partner_id> --actor <who> --reason <why>",
  flags: {
    launchpad: LAUNCHPAD,
    partner: { value: "partner_id", help: "the partner its fees are attributed to" },
    ...ACTOR_FLAGS,
  },
  async run(flags, { pool, out }) {
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
    return { launchpad, partnerId, allowed: true };
  },
});

const disable = defineCommand({
  name: "embed:disable",
  summary: "Stop a launchpad's embedded reservations at once.",
  usage: "embed:disable --launchpad <id> --actor <who> --reason <why>",
  flags: { launchpad: LAUNCHPAD, ...ACTOR_FLAGS },
  async run(flags, { pool, out }) {
    const launchpad = requiredFlag(flags, "launchpad", "the launchpad identifier (see embed:list)");
    if (!(await disableEmbedLaunchpad(pool, launchpad, actorOf(flags)))) {
      throw new UsageError(`Launchpad ${launchpad} is not allowed (see embed:list).`);
    }
    out(`Launchpad ${launchpad} disabled.`);
    return { launchpad, disabled: true };
  },
});

const originAdd = defineCommand({
  name: "embed:origin-add",
  summary:
    "Register a web origin the launchpad's pages are served from: browsers there may call the embed endpoints (CORS).",
  usage: "embed:origin-add --launchpad <id> --origin <https://host[:port]> --actor <who> --reason <why>",
  flags: { launchpad: LAUNCHPAD, origin: ORIGIN, ...ACTOR_FLAGS },
  async run(flags, { pool, out }) {
    const launchpad = requiredFlag(flags, "launchpad", "the launchpad identifier (see embed:list)");
    const origin = requiredFlag(flags, "origin", "the page's origin, e.g. https://app.moonpad.xyz");
    let added: boolean;
    try {
      added = await addEmbedOrigin(pool, launchpad, origin, actorOf(flags));
    } catch (error) {
      if (error instanceof TypeError) throw new UsageError(error.message);
      throw error;
    }
    out(
      added
        ? `Browsers on ${origin} may now call the embed endpoints for launchpad ${launchpad}.`
        : `${origin} was already registered for launchpad ${launchpad}.`,
    );
    return { launchpad, origin, added };
  },
});

const originRemove = defineCommand({
  name: "embed:origin-remove",
  summary: "Unregister a launchpad's web origin: browsers there lose the embed endpoints at once.",
  usage: "embed:origin-remove --launchpad <id> --origin <https://host[:port]> --actor <who> --reason <why>",
  flags: { launchpad: LAUNCHPAD, origin: ORIGIN, ...ACTOR_FLAGS },
  async run(flags, { pool, out }) {
    const launchpad = requiredFlag(flags, "launchpad", "the launchpad identifier (see embed:list)");
    const origin = requiredFlag(flags, "origin", "the registered origin (see embed:list)");
    if (!(await removeEmbedOrigin(pool, launchpad, origin, actorOf(flags)))) {
      throw new UsageError(`${origin} is not registered for launchpad ${launchpad} (see embed:list).`);
    }
    out(`${origin} unregistered from launchpad ${launchpad}.`);
    return { launchpad, origin, removed: true };
  },
});

const list = defineCommand({
  name: "embed:list",
  summary: "List allowlisted embed launchpads.",
  usage: "embed:list",
  flags: {},
  async run(_flags, { pool, out }) {
    const entries = await listEmbedLaunchpads(pool);
    for (const entry of entries) {
      out(
        `${entry.launchpad}  ${entry.partnerId ?? "(unbound)"}  ${entry.disabledAt ? `disabled ${entry.disabledAt.toISOString()}` : "active"}  ${entry.origins.length > 0 ? entry.origins.join(",") : "(no origins)"}`,
      );
    }
    return entries;
  },
});

export const commands: OperatorCommand[] = [allow, disable, originAdd, originRemove, list];
