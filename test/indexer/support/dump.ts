/**
 * Every table the indexer writes, read back in key order as text: two databases that
 * indexed the same stream must dump the same, whatever crashed on the way.
 */
import pg from 'pg';

const TABLES: Record<string, string> = {
  indexer_state: 'id',
  blocks: 'height',
  transactions: 'height, batch, idx',
  market_creations: 'height, batch, idx',
  markets: 'market_id',
  books: 'market_id',
  events: 'ordinal',
  orders: 'owner, order_id',
  trades: 'market_id, trade_id',
  fills: 'owner, cs, trade_id',
  candles: 'market_id, resolution, bucket',
};

export async function dumpDatabase(url: string): Promise<Record<string, string>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const out: Record<string, string> = {};
    for (const [table, key] of Object.entries(TABLES)) {
      const { rows } = await c.query(`SELECT * FROM ${table} ORDER BY ${key}`);
      out[table] = JSON.stringify(rows);
    }
    return out;
  } finally {
    await c.end();
  }
}

export async function rowCount(url: string, table: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
  } finally {
    await c.end();
  }
}
