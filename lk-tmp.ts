import { createTestDatabase } from "./test/support/testDatabase";
import { normalizeIdentity } from "./core/fold";
import { lookalikeKey } from "./core/lookalike";
import { snapshotRows, snapshotParameter } from "./services/identity/recordLoader";
(async () => {
  const db = await createTestDatabase();
  try {
    await db.pool.query(`INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
       reserved_at, expires_at, duration_seconds, fee_paid, tx_hash, block_number)
     SELECT 'hardhat', '0x' || md5('n' || n) || md5('m' || n), '0x' || md5('t' || n) || md5('u' || n),
            'GEN' || translate(n::text, '0123456789', 'ABCDEFGHJK'), 'G' || translate((n % 997)::text, '0123456789', 'ABCDEFGHJK'),
            '0x' || lpad(to_hex(n), 40, '0'), now(), now() + interval '1 day', 86400, 1, '0x00', 1
       FROM generate_series(1, 100000) AS n`);
    await db.pool.query("ANALYZE");
    const batch = (b: number) => snapshotParameter(Array.from({length: 64}, (_, k) => { const n = `GEN${b}x${k}`; const identity = normalizeIdentity(n, "GAB"); return { environment: "production" as const, identity, chain: "hardhat", partnerId: null, lookalikeKey: lookalikeKey(n, "GAB") }; }));
    const params = Array.from({length: 50}, (_, b) => batch(b));
    const client = await db.pool.connect();
    const res: Record<string, number[]> = {};
    for (let rep = 0; rep < 5; rep++) for (const look of [false, true]) {
      const sql = `${snapshotRows("$1", undefined, look)} ORDER BY i.position`;
      for (let k = 0; k < 20; k++) await client.query({ name: `s${look}`, text: sql, values: [params[k % 50]] });
      const t = performance.now();
      for (let k = 0; k < 100; k++) await client.query({ name: `s${look}`, text: sql, values: [params[k % 50]] });
      (res[`lookalikes=${look}`] ??= []).push((performance.now() - t) * 1000 / 100 / 64);
    }
    for (const [k, v] of Object.entries(res)) console.log(k, "µs per row (wall, 64-row batches):", v.map((x) => x.toFixed(1)).join(" "));
    const sql = `EXPLAIN (ANALYZE, BUFFERS off) EXECUTE strue($1)`;
    client.release();
  } finally { await db.close(); }
})();
