// Where the synchronous functions' autonomous session connects (docs/security.md). An administrator
// chooses it (svc_set_sync_connection: the keywords of TARGET_KEYWORDS); svc alone chooses who it logs
// in as (SYNC_ROLE, which can do nothing but act for a waiting call), the database (this one) and the
// session's options: sql/svc__sync_dblink.sql builds the connection string, taking these keywords only.
// Pure functions: parsing follows libpq's keyword/value syntax, so what is checked here is what libpq reads.
import { SvcError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';

/** The role the autonomous session logs in as; created by the extension script. */
export const SYNC_ROLE = 'svc_sync';

/**
 * What an administrator may set: where and how to reach the server. Not `user`, `dbname`, `options`
 * or `service` (svc sets who, which database and the session's settings), and nothing that names a
 * file the server process would read for the caller (passfile, sslkey, ...).
 */
export const TARGET_KEYWORDS = ['host', 'hostaddr', 'port', 'password', 'connect_timeout', 'sslmode', 'channel_binding'] as const;
export type TargetKeyword = (typeof TARGET_KEYWORDS)[number];
export type SyncTarget = Partial<Record<TargetKeyword, string>>;

const FIXED = ['user', 'dbname', 'options', 'application_name'];

/** A libpq keyword/value connection string as keyword → value; an error names the keyword and the rule. */
export function parseConninfo(fn: string, text: string): SyncTarget {
  const bad = (rule: string) => new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: conninfo ${rule}`, {
    hint: `Give keyword=value pairs of ${TARGET_KEYWORDS.join(', ')} (e.g. 'host=/var/run/postgresql port=5432'); svc sets user, dbname and options itself.`,
  });
  if (/^\s*postgres(ql)?:\/\//i.test(text)) throw bad('must be keyword=value pairs, not a URI');
  const target: SyncTarget = {};
  let i = 0;
  const skipSpace = () => { while (i < text.length && /\s/.test(text[i])) i++; };
  for (skipSpace(); i < text.length; skipSpace()) {
    const keyword = /^[A-Za-z_]+/.exec(text.slice(i))?.[0];
    if (!keyword) throw bad(`has no keyword at character ${i + 1}`);
    i += keyword.length;
    skipSpace();
    if (text[i] !== '=') throw bad(`has no "=" after "${keyword}"`);
    i++;
    skipSpace();
    let value = '';
    if (text[i] === "'") {
      for (i++; ; i++) {
        if (i >= text.length) throw bad(`has an unterminated quoted value for "${keyword}"`);
        if (text[i] === "'") { i++; break; }
        if (text[i] === '\\') i++;
        value += text[i];
      }
    } else {
      for (; i < text.length && !/\s/.test(text[i]); i++) {
        if (text[i] === '\\') i++;
        value += text[i] ?? '';
      }
    }
    if (FIXED.includes(keyword) || keyword === 'service') throw bad(`may not set "${keyword}": svc sets who the session logs in as (${SYNC_ROLE}), its database and its options`);
    if (!(TARGET_KEYWORDS as readonly string[]).includes(keyword)) throw bad(`has "${keyword}", which is not one of ${TARGET_KEYWORDS.join(', ')}`);
    if (keyword in target) throw bad(`sets "${keyword}" twice`);
    if (value.includes('\0')) throw bad(`has a NUL character in "${keyword}"`);
    target[keyword as TargetKeyword] = value;
  }
  if (target.port !== undefined && !/^[0-9]{1,5}$/.test(target.port)) throw bad(`port must be a port number (is "${target.port}")`);
  if (target.connect_timeout !== undefined && !/^[0-9]{1,6}$/.test(target.connect_timeout)) throw bad(`connect_timeout must be a number of seconds (is "${target.connect_timeout}")`);
  return target;
}
