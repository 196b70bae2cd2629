// docs/sql.md's settings table lists every setting svc reads, with its default (#45: the model
// settings were missing from it), from the one list of settings (src/extension/settings-catalog.ts).
import { readFileSync } from 'node:fs';
import { SETTINGS } from '../../src/extension/settings-catalog.js';

test("docs/sql.md's settings table has every setting of settings-catalog.ts, with its default", () => {
  const doc = readFileSync(new URL('../../docs/sql.md', import.meta.url), 'utf8');
  const table = doc.slice(doc.indexOf('## Settings'));
  const rows = new Map([...table.matchAll(/^\| `(svc\.[a-z_]+)` \| ([^|]+) \|/gm)].map((m) => [m[1], m[2].trim()]));
  for (const [name, { default: value }] of Object.entries(SETTINGS)) {
    expect({ name, default: rows.get(name) }).toEqual({
      name,
      default: value === null ? '(none)' : /^\d+$/.test(value) ? value : `'${value}'`,
    });
  }
});
