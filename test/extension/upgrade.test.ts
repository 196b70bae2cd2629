// The upgrade path: every kept release (extension/releases/) updated to the current version must end
// up with the same functions, tables, views, indexes, policies and grants as a fresh install, keeping
// queued data.
import type pg from 'pg';
import { readFileSync } from 'node:fs';
import { releasedVersions } from '../../scripts/release-extension.js';
import { useCluster } from '../helpers/cluster.js';

const cluster = useCluster();
const current = /default_version\s*=\s*'([^']+)'/.exec(readFileSync('svc.control', 'utf8'))![1];

// Everything that the extension defines, as comparable text (function bodies included).
const CATALOG = `
  SELECT 'function ' || p.oid::regprocedure || ' -> ' || pg_get_function_result(p.oid) || ' ' || p.prosecdef || ' ' ||
         p.provolatile::text || ' ' || coalesce(p.proconfig::text, '') || ' ' || coalesce(p.proacl::text, '') || ' ' ||
         md5(p.prosrc) AS item
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' AND p.proname LIKE 'svc%'
  UNION ALL
  SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull || ' ' ||
         coalesce(pg_get_expr(d.adbin, d.adrelid), '') || ' ' || coalesce(c.relacl::text, '') || ' ' || coalesce(a.attacl::text, '')
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
  WHERE n.nspname = 'public' AND c.relname LIKE 'svc%' AND c.relkind IN ('r', 'S', 'v')
  UNION ALL
  SELECT 'relation ' || c.relname || ' ' || c.relkind::text || ' rls ' || c.relrowsecurity || ' ' || c.relforcerowsecurity || ' ' ||
         coalesce(c.relacl::text, '') || ' ' || coalesce(pg_get_viewdef(c.oid), '')
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relname LIKE 'svc%' AND c.relkind IN ('r', 'S', 'v')
  UNION ALL
  SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename LIKE 'svc%'
  UNION ALL
  SELECT 'policy ' || tablename || ' ' || policyname || ' ' || cmd || ' ' || coalesce(qual, '') || ' ' || coalesce(with_check, '')
  FROM pg_policies WHERE schemaname = 'public'
  ORDER BY 1`;

async function catalog(client: pg.Client): Promise<string[]> {
  return (await client.query(CATALOG)).rows.map((r) => r.item);
}

test.each(releasedVersions())(`%s updates to ${current}, equal to a fresh install, keeping queued requests`, async (version) => {
  const db = (what: string) => `${what}_${version.replace(/\W/g, '_')}`;
  const admin = await cluster().connect();
  await admin.query(`CREATE DATABASE ${db('upgraded')}`);
  await admin.query(`CREATE DATABASE ${db('fresh')}`);
  await admin.end();

  const upgraded = await cluster().connect(db('upgraded'));
  const fresh = await cluster().connect(db('fresh'));
  try {
    await upgraded.query(`CREATE EXTENSION svc VERSION '${version}' CASCADE`);
    const id = (await upgraded.query(`SELECT svc_generate_async('kept across the update', priority := 3) AS id`)).rows[0].id;
    await upgraded.query('ALTER EXTENSION svc UPDATE');
    expect((await upgraded.query(`SELECT extversion FROM pg_extension WHERE extname = 'svc'`)).rows[0].extversion).toBe(current);

    await fresh.query('CREATE EXTENSION svc CASCADE');
    const items = await catalog(fresh);
    expect(items.filter((i) => i.startsWith('column svc_cache.'))).toHaveLength(8);
    expect(items.filter((i) => i.startsWith('function svc_generate('))).toHaveLength(2); // and its set-based form
    expect(await catalog(upgraded)).toEqual(items);

    expect((await upgraded.query('SELECT status, priority, parameters->>$2 AS prompt FROM svc_queue WHERE request_id = $1', [id, 'prompt'])).rows[0])
      .toEqual({ status: 'pending', priority: 3, prompt: 'kept across the update' });
    // The updated functions run: the bundle of the new build replaces the old one in the same session.
    expect((await upgraded.query(`SELECT * FROM svc_cache_stats()`)).rows[0]).toMatchObject({ entries: '0' });
    expect((await upgraded.query(`SELECT svc_cancel_async($1) AS ok`, [id])).rows[0].ok).toBe(true);
  } finally {
    await upgraded.end();
    await fresh.end();
  }
});
