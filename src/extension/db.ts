// The one door from svc's TypeScript to PostgreSQL, through plv8. Plans are prepared once per session
// (the bundle's module state lives as long as the plv8 context) and reused.
import type { Query } from './queries.js';

interface Plv8Plan {
  execute(args?: unknown[]): Record<string, unknown>[] | number;
}
interface Plv8 {
  prepare(sql: string, types?: readonly string[]): Plv8Plan;
  execute(sql: string, args?: unknown[]): Record<string, unknown>[] | number;
}
declare const plv8: Plv8;

const plans = new Map<Query, Plv8Plan>();

function plan(query: Query): Plv8Plan {
  let p = plans.get(query);
  if (!p) {
    p = plv8.prepare(query.sql, query.types);
    plans.set(query, p);
  }
  return p;
}

export function rows<T = Record<string, unknown>>(query: Query, ...args: unknown[]): T[] {
  const result = plan(query).execute(args);
  return (Array.isArray(result) ? result : []) as T[];
}

export function one<T = Record<string, unknown>>(query: Query, ...args: unknown[]): T | undefined {
  return rows<T>(query, ...args)[0];
}

/**
 * A statement built at run time (a vectorizer's DDL, src/extension/vectorizer-sql.ts), run once and
 * not prepared; its identifiers are quoted where it is built, its values passed as parameters.
 */
export function run<T = Record<string, unknown>>(sql: string, ...args: unknown[]): T[] {
  const result = plv8.execute(sql, args);
  return (Array.isArray(result) ? result : []) as T[];
}
