// The plan Postgres makes for a statement, as a tree of nodes, so a test can say how a statement reads its
// tables: which scans, and how many rows they visit.
import type { Pool } from "pg";

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Join Filter"?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan, depth first. */
export function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** The node types that read `table`. */
export function scansOf(plan: PlanNode, table: string): string[] {
  return nodesOf(plan)
    .filter((node) => node["Relation Name"] === table)
    .map((node) => node["Node Type"]);
}

/**
 * Rows of `table` the executed plan looked at: those its scans returned or filtered out, in every loop, and
 * the pairs its joins threw away (a join that tries every row of `table` against each outer row).
 */
export function rowsVisited(plan: PlanNode, table: string): number {
  return nodesOf(plan).reduce((sum, node) => {
    const loops = node["Actual Loops"] ?? 1;
    const scanned =
      node["Relation Name"] === table
        ? ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) * loops
        : 0;
    return sum + scanned + (node["Rows Removed by Join Filter"] ?? 0) * loops;
  }, 0);
}

export interface PlanOptions {
  /** The generic plan a named statement settles on (`types`: its parameters' types); else the custom plan. */
  generic?: { types: readonly string[] };
  /** Runs the statement (EXPLAIN ANALYZE): inside a transaction that is rolled back. */
  analyze?: boolean;
}

/** A parameter's text as Postgres reads it (dates, numbers, strings and arrays of strings: what tests pass). */
function literalText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `{${value.map((item) => JSON.stringify(String(item))).join(",")}}`;
  return String(value);
}

/** The plan of `sql` with `values`, in a transaction rolled back afterwards. */
export async function planOf(
  pool: Pool,
  sql: string,
  values: readonly unknown[],
  options: PlanOptions = {},
): Promise<PlanNode> {
  const client = await pool.connect();
  const explain = `EXPLAIN (FORMAT JSON${options.analyze ? ", ANALYZE" : ""})`;
  try {
    await client.query("BEGIN");
    let text = `${explain} ${sql}`;
    if (options.generic) {
      await client.query("SET LOCAL plan_cache_mode = force_generic_plan");
      await client.query(`PREPARE plan_probe (${options.generic.types.join(", ")}) AS ${sql}`);
      // EXECUTE takes no bound parameters: its arguments are literals.
      const literals = values.map((value) => `${client.escapeLiteral(literalText(value))}`);
      text = `${explain} EXECUTE plan_probe(${literals.join(", ")})`;
    }
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      text,
      options.generic ? [] : [...values],
    );
    return (rows[0] as { "QUERY PLAN": [{ Plan: PlanNode }] })["QUERY PLAN"][0].Plan;
  } finally {
    await client.query("ROLLBACK");
    if (options.generic) await client.query("DEALLOCATE plan_probe").catch(() => undefined);
    client.release();
  }
}
