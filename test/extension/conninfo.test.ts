// Where the autonomous session connects (src/extension/conninfo.ts): libpq's keyword/value syntax read
// as libpq reads it, only the keywords of where to connect, and svc's own who and what. (The connection
// string svc builds from it: sql/svc__sync_dblink.sql, tested in sync-security.test.ts.)
import { parseConninfo } from '../../src/extension/conninfo.js';

const parse = (text: string) => parseConninfo('f', text);

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
