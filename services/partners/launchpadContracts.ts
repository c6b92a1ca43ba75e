// Launchpad contracts bound to launchpad ids: validate signs an on-chain decision for one factory or launch program
// only when it belongs to the launchpad id the decision is signed for (itself the caller's, launchpads.ts). As with
// ids: operators bind (audited); in the sandbox an unbound contract is claimed by its first user; in production an
// unbound one is refused.
import type { Pool, PoolClient } from "pg";
import { onChainKey } from "../../core/address/equality";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import type { ChainFamily } from "../../core/status";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";

export interface LaunchpadContract {
  environment: Environment;
  chain: string;
  family: ChainFamily;
  /** The factory address (EVM) or program id (Solana). */
  address: string;
  launchpad: string;
}

async function contractOwner(db: Pool | PoolClient, contract: LaunchpadContract): Promise<string | null> {
  const { rows } = await db.query<{ launchpad: string }>(
    "SELECT launchpad FROM launchpad_contracts WHERE environment = $1 AND chain = $2 AND address = $3",
    [contract.environment, contract.chain, onChainKey(contract.family, contract.address)],
  );
  return rows[0]?.launchpad ?? null;
}

/** Binds an unbound sandbox contract to the caller's launchpad id; the id that holds it afterwards. */
async function claimSandboxContract(
  db: Pool | PoolClient,
  contract: LaunchpadContract,
): Promise<string | null> {
  const claimed = await db.query<{ launchpad: string }>(
    `INSERT INTO launchpad_contracts (environment, chain, address, launchpad, source, bound_by)
     VALUES ('sandbox', $1, $2, $3, 'sandbox_claim', $3) ON CONFLICT DO NOTHING RETURNING launchpad`,
    [contract.chain, onChainKey(contract.family, contract.address), contract.launchpad],
  );
  return claimed.rows[0]?.launchpad ?? contractOwner(db, contract);
}

/** 403 unless the contract is bound to `contract.launchpad` (claiming an unbound one in the sandbox). */
export async function assertLaunchpadContract(
  db: Pool | PoolClient,
  contract: LaunchpadContract,
): Promise<void> {
  let owner = await contractOwner(db, contract);
  if (owner === null && contract.environment === "sandbox") owner = await claimSandboxContract(db, contract);
  if (owner === contract.launchpad) return;
  const details = { chain: contract.chain, launchpadContract: contract.address };
  if (owner === null) throw new ApiError("launchpad_contract_not_registered", undefined, details);
  throw new ApiError("launchpad_contract_of_another_launchpad", undefined, details);
}

/** Binds a contract to a launchpad id in one environment (replacing a claim or an earlier binding), audited. */
export async function bindLaunchpadContract(
  pool: Pool,
  contract: LaunchpadContract,
  by: Actor,
): Promise<void> {
  const address = onChainKey(contract.family, contract.address);
  await withTransaction(pool, async (client) => {
    const previous = await contractOwner(client, contract);
    await client.query(
      `INSERT INTO launchpad_contracts (environment, chain, address, launchpad, source, bound_by)
       VALUES ($1, $2, $3, $4, 'operator', $5)
       ON CONFLICT (environment, chain, address) DO UPDATE
         SET launchpad = $4, source = 'operator', bound_by = $5, bound_at = now()`,
      [contract.environment, contract.chain, address, contract.launchpad, by.actor],
    );
    await appendAudit(client, {
      ...by,
      action: "launchpad_contract.bind",
      subject: `launchpad:${contract.launchpad}`,
      details: { environment: contract.environment, chain: contract.chain, address, previous },
    });
  });
}

/** Removes a contract's binding in one environment; false when it had none. */
export async function unbindLaunchpadContract(
  pool: Pool,
  contract: Omit<LaunchpadContract, "launchpad">,
  by: Actor,
): Promise<boolean> {
  const address = onChainKey(contract.family, contract.address);
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ launchpad: string }>(
      "DELETE FROM launchpad_contracts WHERE environment = $1 AND chain = $2 AND address = $3 RETURNING launchpad",
      [contract.environment, contract.chain, address],
    );
    const removed = rows[0];
    if (removed === undefined) return false;
    await appendAudit(client, {
      ...by,
      action: "launchpad_contract.unbind",
      subject: `launchpad:${removed.launchpad}`,
      details: { environment: contract.environment, chain: contract.chain, address },
    });
    return true;
  });
}

export interface LaunchpadContractBinding {
  environment: Environment;
  chain: string;
  address: string;
  launchpad: string;
  source: "operator" | "sandbox_claim";
  boundAt: Date;
}

export async function listLaunchpadContracts(pool: Pool): Promise<LaunchpadContractBinding[]> {
  const { rows } = await pool.query<{
    environment: Environment;
    chain: string;
    address: string;
    launchpad: string;
    source: LaunchpadContractBinding["source"];
    bound_at: Date;
  }>(
    "SELECT environment, chain, address, launchpad, source, bound_at FROM launchpad_contracts ORDER BY launchpad, environment, chain",
  );
  return rows.map((row) => ({
    environment: row.environment,
    chain: row.chain,
    address: row.address,
    launchpad: row.launchpad,
    source: row.source,
    boundAt: row.bound_at,
  }));
}
