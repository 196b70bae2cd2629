// The autonomous session's connection string (src/extension/conninfo.ts): libpq's keyword/value
// syntax read as libpq reads it, only the keywords of where to connect, and svc's own who and what.
import { parseConninfo, quoteConninfoValue, syncConninfo } from '../../src/extension/conninfo.js';

const parse = (text: string) => parseConninfo('f', text);
const local = { database: 'app db', port: '5432', socketDirectories: "/run/post'gres, /tmp" };

test('keyword/value pairs: unquoted, quoted with escapes, spaces around =', () => {
  expect(parse(`host = /tmp port=5433 password='it\\'s a \\\\ secret' connect_timeout=5`)).toEqual({
    host: '/tmp', port: '5433', password: "it's a \\ secret", connect_timeout: '5',
  });
  expect(parse(`password=a\\ b`)).toEqual({ password: 'a b' });
  expect(parse('   ')).toEqual({});
});

test('who, which database and the session options are svc\'s alone', () => {
  for (const keyword of ['user', 'dbname', 'options', 'application_name', 'service']) {
    expect(() => parse(`${keyword}=x`)).toThrow(new RegExp(`may not set "${keyword}"`));
  }
  expect(() => parse('passfile=/root/.pgpass')).toThrow(/"passfile", which is not one of/);
});

test('the connection string svc builds: defaults from the server, the target over them, svc_sync in this database', () => {
  expect(syncConninfo({}, local, 'svc_sync')).toBe(
    "host='/run/post\\'gres' port='5432' dbname='app db' user='svc_sync' options='-c search_path=pg_catalog,pg_temp' application_name='svc_sync'",
  );
  expect(syncConninfo({ host: '10.0.0.1', password: "p'w" }, local, 'n')).toMatch(/^host='10\.0\.0\.1' port='5432' password='p\\'w' dbname=/);
  // What svc writes, libpq reads back the same (the parser above is libpq's syntax).
  const written = `host=${quoteConninfoValue("a b'c\\d")} port=1`;
  expect(parse(written)).toEqual({ host: "a b'c\\d", port: '1' });
});
