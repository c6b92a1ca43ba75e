// Launchpad ids bound to partners: a partner may sign and report only its own ids (docs/decisions.md).
import { isAddress } from "viem";
import { decodeBase58 } from "../../../core/decision/onchain/fields";
import type { ChainFamily } from "../../../core/status";
import {
  bindLaunchpadContract,
  listLaunchpadContracts,
  unbindLaunchpadContract,
} from "../../../services/partners/launchpadContracts";
import { bindLaunchpad, listLaunchpads, unbindLaunchpad } from "../../../services/partners/launchpads";
import { defineCommand, type OperatorCommand, UsageError } from "../command";
import { ACTOR_FLAGS, actorOf, environmentFlag, type Flags, requiredFlag } from "../flags";

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
  summary:
    "List launchpad ids with their partner, and launchpad contracts with their id, per environment (operator bindings and sandbox claims).",
  usage: "launchpads:list",
  flags: {},
  async run(_flags, { pool, out }) {
    const entries = await listLaunchpads(pool);
    for (const entry of entries) {
      out(
        `${entry.launchpad}  ${entry.environment}  ${entry.partnerId}  ${entry.source}  ${entry.boundAt.toISOString()}`,
      );
    }
    const contracts = await listLaunchpadContracts(pool);
    for (const contract of contracts) {
      out(
        `${contract.launchpad}  ${contract.environment}  ${contract.chain}  ${contract.address}  ${contract.source}  ${contract.boundAt.toISOString()}`,
      );
    }
    return entries;
  },
});

const CONTRACT_FLAGS = {
  environment: { value: "sandbox|production", help: "whose registry the contract's guard reads" },
  chain: { value: "chain", help: "the chain name partners send, e.g. base or solana" },
  address: { value: "address", help: "the factory address (EVM) or launch program id (Solana)" },
};

/** The contract a command names; its family read off the address's form. */
function contractOf(flags: Flags): {
  environment: "sandbox" | "production";
  chain: string;
  family: ChainFamily;
  address: string;
} {
  const address = requiredFlag(flags, "address", "the factory address (EVM) or launch program id (Solana)");
  let family: ChainFamily;
  if (isAddress(address)) family = "evm";
  else if (decodeBase58(address)?.length === 32) family = "solana";
  else {
    throw new UsageError(
      `--address ${address} is neither a 0x EVM address (a mixed-case one with a valid checksum) nor a base58 Solana program id.`,
    );
  }
  return {
    environment: environmentFlag(flags),
    chain: requiredFlag(flags, "chain", "the chain name partners send, e.g. base or solana"),
    family,
    address,
  };
}

const bindContract = defineCommand({
  name: "launchpads:bind-contract",
  summary:
    "Bind a launchpad factory (EVM) or launch program (Solana) to a launchpad id, so validate signs on-chain decisions for it.",
  usage:
    "launchpads:bind-contract --launchpad <id> --environment sandbox|production --chain <chain> --address <address> --actor <who> --reason <why>",
  flags: { launchpad: LAUNCHPAD, ...CONTRACT_FLAGS, ...ACTOR_FLAGS },
  async run(flags, { pool, out }) {
    const launchpad = requiredFlag(flags, "launchpad", "the launchpad id the contract belongs to");
    const contract = { ...contractOf(flags), launchpad };
    await bindLaunchpadContract(pool, contract, actorOf(flags));
    out(
      `${contract.address} on ${contract.chain} (${contract.environment}) is bound to launchpad ${launchpad}; on-chain decisions for it are signed only for that launchpad id.`,
    );
    return { ...contract, bound: true };
  },
});

const unbindContract = defineCommand({
  name: "launchpads:unbind-contract",
  summary: "Remove a launchpad contract's binding: validate then refuses on-chain decisions for it (403).",
  usage:
    "launchpads:unbind-contract --environment sandbox|production --chain <chain> --address <address> --actor <who> --reason <why>",
  flags: { ...CONTRACT_FLAGS, ...ACTOR_FLAGS },
  async run(flags, { pool, out }) {
    const contract = contractOf(flags);
    if (!(await unbindLaunchpadContract(pool, contract, actorOf(flags)))) {
      throw new UsageError(`${contract.address} on ${contract.chain} is not bound (see launchpads:list).`);
    }
    out(`${contract.address} on ${contract.chain} (${contract.environment}) unbound.`);
    return { ...contract, unbound: true };
  },
});

export const commands: OperatorCommand[] = [bind, unbind, bindContract, unbindContract, list];
