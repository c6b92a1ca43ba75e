// Production keys for benches that validate: each key is limited to 2000 requests a minute (the database's
// bound), so a load of thousands a second is spread over enough of them.
import type { Pool } from "pg";
import { createApiKey } from "../../services/partners/apiKeyStore";

/** The raw secrets of `count` new production keys with the launch:validate scope, at the highest limit. */
export async function validationKeys(pool: Pool, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const { issued } = await createApiKey(pool, {
      environment: "production",
      scopes: ["launch:validate"],
      rateLimitPerMinute: 2000,
      label: `bench ${index}`,
      createdBy: "bench",
    });
    keys.push(issued.secret);
  }
  return keys;
}
