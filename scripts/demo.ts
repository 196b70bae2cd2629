// The README's main command: a throwaway PostgreSQL with the project's extensions, and real calls.
import { startCluster } from './cluster.js';

const cluster = await startCluster();
const client = await cluster.connect();
const show = async (label: string, sql: string) => {
  const { rows } = await client.query(sql);
  console.log(`\n-- ${label}\n${sql.trim()}\n=> ${JSON.stringify(rows.length === 1 ? rows[0] : rows)}`);
};
try {
  console.log(`throwaway PostgreSQL at ${cluster.host} port ${cluster.port}`);
  await client.query('CREATE EXTENSION plv8');
  await show('the plv8 language (plv8-compat on this machine)', 'SELECT plv8_version() AS version');
  await client.query(`CREATE FUNCTION word_counts(doc text) RETURNS jsonb LANGUAGE plv8 AS $$
    const counts = {};
    for (const word of doc.toLowerCase().match(/[a-z]+/g) ?? []) counts[word] = (counts[word] ?? 0) + 1;
    return counts;
  $$`);
  await show('a JavaScript function over text, returning jsonb', `SELECT word_counts('the cat saw the other cat') AS counts`);
  await show('plv8.execute from inside JavaScript', `DO $$ plv8.elog(NOTICE, 'rows:', plv8.execute('SELECT 1 AS one').length) $$; SELECT 'ok' AS done`);
} finally {
  await client.end();
  await cluster.stop();
}
