// Calls per second of plv8 (plv8-compat here) against the same logic in PL/pgSQL, in one run on one
// throwaway cluster: a trivial function, and a JSON round trip (jsonb in, modified, jsonb out).
// Each figure is the median of several runs of `SELECT count(f(...)) FROM generate_series(1, N)`.
import { startCluster } from '../scripts/cluster.js';

const N = Number(process.env.BENCH_CALLS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const functions = `
  CREATE FUNCTION add_plv8(a int, b int) RETURNS int LANGUAGE plv8 IMMUTABLE AS $$ return a + b; $$;
  CREATE FUNCTION add_plpgsql(a int, b int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN a + b; END $$;
  CREATE FUNCTION bump_plv8(doc jsonb) RETURNS jsonb LANGUAGE plv8 IMMUTABLE AS $$ doc.n += 1; doc.tags.push('x'); return doc; $$;
  CREATE FUNCTION bump_plpgsql(doc jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
  BEGIN
    RETURN jsonb_set(jsonb_set(doc, '{n}', to_jsonb((doc->>'n')::int + 1)), '{tags}', (doc->'tags') || '"x"');
  END $$;`;

const cases = [
  { name: 'trivial (a + b)', plv8: 'add_plv8(i, 1)', plpgsql: 'add_plpgsql(i, 1)' },
  {
    name: 'JSON round trip',
    plv8: `bump_plv8(jsonb_build_object('n', i, 'name', 'item', 'tags', jsonb_build_array('a', 'b')))`,
    plpgsql: `bump_plpgsql(jsonb_build_object('n', i, 'name', 'item', 'tags', jsonb_build_array('a', 'b')))`,
  },
];

const cluster = await startCluster();
const client = await cluster.connect();
try {
  await client.query('CREATE EXTENSION plv8');
  await client.query(functions);
  const callsPerSecond = async (expr: string) => {
    const sql = `SELECT count(${expr}) FROM generate_series(1, ${N}) AS i`;
    await client.query(sql.replace(String(N), '1000')); // warm: compile, context, caches
    const rates: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const start = process.hrtime.bigint();
      await client.query(sql);
      rates.push(N / (Number(process.hrtime.bigint() - start) / 1e9));
    }
    rates.sort((a, b) => a - b);
    return rates[Math.floor(rates.length / 2)];
  };
  const { rows } = await client.query('SELECT plv8_version() AS v');
  console.log(`plv8 ${rows[0].v} vs PL/pgSQL, ${N} calls per run, median of ${RUNS} runs\n`);
  console.log('| case | plv8 calls/s | PL/pgSQL calls/s | plv8 / PL/pgSQL |');
  console.log('|---|---:|---:|---:|');
  for (const c of cases) {
    const plv8 = await callsPerSecond(c.plv8);
    const plpgsql = await callsPerSecond(c.plpgsql);
    const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
    console.log(`| ${c.name} | ${fmt(plv8)} | ${fmt(plpgsql)} | ${(plv8 / plpgsql).toFixed(2)} |`);
  }
} finally {
  await client.end();
  await cluster.stop();
}
