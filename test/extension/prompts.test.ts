// The prompt registry: named, versioned templates per role (svc_prompt_create, _update, _get, _list,
// _render, _delete), checked when stored, rendered with a JSON object of variables, an error naming
// a variable the object lacks; no role sees, renders or changes another's prompts.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';

const svc = useSvc();
let su: pg.Client;
let alice: pg.Client;
let alice2: pg.Client;
let bob: pg.Client;
let admin: pg.Client;

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  alice2 = await svc().connect(ROLES.alice);
  bob = await svc().connect(ROLES.bob);
  admin = await svc().connect(ROLES.admin);
});

const GREET_V1 = 'Write a story for {{ child.name }}.';
const GREET_V2 = `Write a story for {{ child.name }}.
{% if child.likes %}
It is about:
{% for thing in child.likes %}
- {{ thing }}{% if loop.last %}.{% endif %}
{% endfor %}
{% endif %}
Once upon a time`;

const failure = async (client: pg.Client, sql: string, params: unknown[] = []) =>
  client.query(sql, params).then(
    () => ({ code: 'none', message: 'no error', hint: undefined as string | undefined }),
    (e: { code: string; message: string; hint?: string }) => ({ code: e.code, message: e.message, hint: e.hint }),
  );
const rowCount = async () => (await su.query('SELECT count(*)::int AS n FROM svc_prompts')).rows[0].n as number;

test('create, update (a new version each time), get, list and render, latest or a given version', async () => {
  expect((await alice.query(`SELECT svc_prompt_create('greet', $1, description := 'a bedtime story') AS v`, [GREET_V1])).rows[0].v).toBe(1);
  expect((await alice.query(`SELECT svc_prompt_update('greet', $1) AS v`, [GREET_V2])).rows[0].v).toBe(2);

  const latest = (await alice.query(`SELECT * FROM svc_prompt_get('greet')`)).rows[0];
  expect(latest).toMatchObject({ prompt_name: 'greet', prompt_version: 2, template: GREET_V2, description: 'a bedtime story', variables: ['child'] });
  expect((await alice.query(`SELECT template FROM svc_prompt_get('greet', version := 1)`)).rows[0].template).toBe(GREET_V1);
  const list = (await alice.query(`SELECT prompt_name, latest_version, versions, description, created_at <= updated_at AS ordered FROM svc_prompt_list()`)).rows;
  expect(list).toEqual([{ prompt_name: 'greet', latest_version: 2, versions: 2, description: 'a bedtime story', ordered: true }]);

  const variables = { child: { name: 'Lily', likes: ['a red ball', 'her dog'] } };
  const render = async (extra = '') => (await alice.query(`SELECT svc_prompt_render('greet', $1::jsonb${extra}) AS t`, [variables])).rows[0].t;
  expect(await render()).toBe('Write a story for Lily.\nIt is about:\n- a red ball\n- her dog.\nOnce upon a time');
  expect(await render(', version := 1')).toBe('Write a story for Lily.');
  expect((await alice.query(`SELECT svc_prompt_render('greet', '{"child":{"name":"Tom"}}') AS t`)).rows[0].t).toBe('Write a story for Tom.\nOnce upon a time');

  // The rendered text is an ordinary prompt: what a generation is asked (the request records it).
  const id = (await alice.query(`SELECT svc_generate_async(svc_prompt_render('greet', $1::jsonb), max_tokens := 16) AS id`, [variables])).rows[0].id;
  expect((await alice.query(`SELECT parameters->>'prompt' AS p FROM svc_queue WHERE request_id = $1`, [id])).rows[0].p).toBe(await render());
  await alice.query('SELECT svc_cancel_async($1)', [id]);
});

test('a render names the variable it lacks, and where the template reads it', async () => {
  const cases: Array<[string, string, RegExp]> = [
    [`'{}'`, '22023', /^svc_prompt_render: variables must give what prompt 'greet' version 2 reads: 'child\.name' is missing \(used at line 1, column 19\)$/],
    [`'{"child": {"name": null}}'`, '22023', /'child\.name' is null \(used at line 1, column 19\)/],
    [`'{"child": {"name": "x", "likes": "ball"}}'`, '22023', /'child\.likes' must be an array to loop over \(is a string; \{% for %\} at line 4, column 1\)/],
    [`'[1]'`, '22023', /^svc_prompt_render: variables must be a JSON object of the template's variables \(got an array\)$/],
    [`'"x"'`, '22023', /variables must be a JSON object .*\(got a string\)$/],
    [`NULL`, '22004', /^svc_prompt_render: variables must not be NULL$/],
    [`'{}', version := 0`, '22023', /^svc_prompt_render: version must be between 1 and 2147483647 \(got 0\)$/],
    [`'{}', version := 3`, '42704', /^svc_prompt_render: name 'greet' is no prompt of yours with a version 3$/],
  ];
  for (const [args, code, message] of cases) {
    const e = await failure(alice, `SELECT svc_prompt_render('greet', ${args})`);
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
  }
  expect(await failure(alice, `SELECT svc_prompt_render('nope')`)).toMatchObject({ code: '42704', message: "svc_prompt_render: name 'nope' is no prompt of yours", hint: 'svc_prompt_list() lists your prompts.' });
  // Output is bounded: 1,000 x 1,000 loop turns of 10 characters pass the 1,000,000-character limit.
  await alice.query(`SELECT svc_prompt_create('big', '{% for a in xs %}{% for b in xs %}0123456789{% endfor %}{% endfor %}')`);
  const xs = JSON.stringify({ xs: Array.from({ length: 1000 }, (_, i) => i) });
  expect(await failure(alice, `SELECT svc_prompt_render('big', $1::jsonb)`, [xs])).toMatchObject({ code: '54000', message: "svc_prompt_render: prompt 'big' version 1: the rendered prompt passes 1000000 characters" });
  await alice.query(`SELECT svc_prompt_delete('big')`);
});

test('bad input to create, update, get and delete is refused with its name and rule, and nothing is stored', async () => {
  const before = await rowCount();
  const cases: Array<[string, string, string | RegExp]> = [
    [`SELECT svc_prompt_create(NULL, 'x')`, '22004', 'svc_prompt_create: name must not be NULL'],
    [`SELECT svc_prompt_create('has space', 'x')`, '22023', `svc_prompt_create: name must be 1 to 63 letters, digits, ".", "_", ":" or "-", starting with a letter or digit (got 'has space')`],
    [`SELECT svc_prompt_create('x', NULL)`, '22004', 'svc_prompt_create: template must not be NULL'],
    [`SELECT svc_prompt_create('x', '  ')`, '22023', 'svc_prompt_create: template must not be empty'],
    [`SELECT svc_prompt_create('x', 'Hi {{ name')`, '22023', 'svc_prompt_create: template is not a valid template: {{ at line 1, column 4 is not closed by }}'],
    [`SELECT svc_prompt_create('x', E'a\\n{% for x in xs %}')`, '22023', 'svc_prompt_create: template is not a valid template: {% for %} at line 2, column 1 is not closed by {% endfor %}'],
    [`SELECT svc_prompt_create('x', repeat('a', 100001))`, '54000', 'svc_prompt_create: template must be at most 100000 characters (got 100001)'],
    [`SELECT svc_prompt_create('x', 'a', repeat('d', 10001))`, '54000', 'svc_prompt_create: description must be at most 10000 characters (got 10001)'],
    [`SELECT svc_prompt_create('greet', 'again')`, '42710', "svc_prompt_create: you already have a prompt named 'greet' (latest version 2)"],
    [`SELECT svc_prompt_update('greet', '{% if %}{% endif %}')`, '22023', `svc_prompt_update: template is not a valid template: {% if %} at line 1, column 1 must be a variable name or a dotted path such as customer.name or items.0 (got '')`],
    [`SELECT svc_prompt_update('nope', 'x')`, '42704', "svc_prompt_update: name 'nope' is no prompt of yours"],
    [`SELECT * FROM svc_prompt_get('greet', 9)`, '42704', "svc_prompt_get: name 'greet' is no prompt of yours with a version 9"],
    [`SELECT * FROM svc_prompt_get('greet', 0)`, '22023', 'svc_prompt_get: version must be between 1 and 2147483647 (got 0)'],
    [`SELECT * FROM svc_prompt_get(NULL)`, '22004', 'svc_prompt_get: name must not be NULL'],
    [`SELECT svc_prompt_delete('nope')`, '42704', "svc_prompt_delete: name 'nope' is no prompt of yours"],
  ];
  for (const [sql, code, message] of cases) {
    const e = await failure(alice, sql);
    expect({ sql, code: e.code }).toEqual({ sql, code });
    if (typeof message === 'string') expect(e.message).toBe(message);
    else expect(e.message).toMatch(message);
  }
  expect(await rowCount()).toBe(before);
  expect((await alice.query(`SELECT prompt_version FROM svc_prompt_get('greet')`)).rows[0].prompt_version).toBe(2);
});

test("no role sees, renders, changes or removes another role's prompts; each has its own names", async () => {
  // bob: alice's prompt does not exist for him, and the errors say no more than that.
  expect((await bob.query('SELECT * FROM svc_prompt_list()')).rows).toEqual([]);
  expect((await bob.query('SELECT * FROM svc_prompts')).rows).toEqual([]);
  for (const sql of [`SELECT * FROM svc_prompt_get('greet')`, `SELECT svc_prompt_render('greet', '{"child":{"name":"x"}}')`, `SELECT svc_prompt_update('greet', 'mine now')`, `SELECT svc_prompt_delete('greet')`]) {
    expect((await failure(bob, sql)).code).toBe('42704');
  }
  // Nor by writing the table.
  for (const sql of [
    `INSERT INTO svc_prompts (owner, name, version, template, variables) VALUES ('alice', 'greet', 3, 'forged', '{}')`,
    `UPDATE svc_prompts SET template = 'forged'`,
    `DELETE FROM svc_prompts`,
    `TRUNCATE svc_prompts`,
    `SELECT * FROM svc_prompts FOR UPDATE`, // nor hold the lock an update of alice's takes
  ]) {
    expect(await failure(bob, sql)).toMatchObject({ code: '42501' });
  }
  // bob's own 'greet' is his: version 1, beside alice's 2.
  expect((await bob.query(`SELECT svc_prompt_create('greet', 'Bob says {{ x }}') AS v`)).rows[0].v).toBe(1);
  expect((await bob.query(`SELECT svc_prompt_render('greet', '{"x": "hi"}') AS t`)).rows[0].t).toBe('Bob says hi');
  expect((await alice.query(`SELECT prompt_version, template FROM svc_prompt_get('greet')`)).rows[0]).toEqual({ prompt_version: 2, template: GREET_V2 });
  expect((await alice.query(`SELECT owner::text FROM svc_prompts`)).rows.every((r) => r.owner === 'alice')).toBe(true);
  // svc_admin members read every row; the functions still act on their own prompts.
  expect((await admin.query(`SELECT DISTINCT owner::text FROM svc_prompts ORDER BY 1`)).rows.map((r) => r.owner)).toEqual(['alice', 'bob']);
  expect((await failure(admin, `SELECT svc_prompt_render('greet', '{}')`)).code).toBe('42704');
  expect((await bob.query(`SELECT svc_prompt_delete('greet') AS n`)).rows[0].n).toBe(1);
  expect((await alice.query(`SELECT versions FROM svc_prompt_list()`)).rows).toEqual([{ versions: 2 }]);
});

test('concurrent updates of one prompt take successive versions', async () => {
  await alice.query('BEGIN');
  expect((await alice.query(`SELECT svc_prompt_update('greet', 'v3 {{ a }}') AS v`)).rows[0].v).toBe(3);
  const second = alice2.query(`SELECT svc_prompt_update('greet', 'v4 {{ b }}') AS v`); // waits for the first
  await new Promise((r) => setTimeout(r, 200));
  await alice.query('COMMIT');
  expect((await second).rows[0].v).toBe(4);
  expect((await alice.query(`SELECT variables FROM svc_prompt_get('greet')`)).rows[0].variables).toEqual(['b']);
  expect((await alice.query(`SELECT description FROM svc_prompt_get('greet')`)).rows[0].description).toBe('a bedtime story');
});

test('metadata (a JSON object, kept by updates unless given), every version listed with is_active, non-strict rendering and filters', async () => {
  const create = `SELECT svc_prompt_create('tagged', 'Dear {{ who | trim | upper }}, {{ topics | join(", ") | default("nothing") }}.', metadata := '{"team": "kids", "tags": ["bedtime"]}')`;
  expect((await alice.query(create)).rows[0].svc_prompt_create).toBe(1);
  expect((await alice.query(`SELECT svc_prompt_update('tagged', 'Hi {{ who | lower }}{{ note | default("") | truncate(5) }} ({{ topics | length }})') AS v`)).rows[0].v).toBe(2);
  expect((await alice.query(`SELECT svc_prompt_update('tagged', 'v3 {{ who }}', metadata := '{"team": "ops"}') AS v`)).rows[0].v).toBe(3);
  const versions = (await alice.query(`SELECT prompt_version, is_active, metadata, variables FROM svc_prompt_versions('tagged')`)).rows;
  expect(versions).toEqual([
    { prompt_version: 1, is_active: false, metadata: { team: 'kids', tags: ['bedtime'] }, variables: ['who', 'topics'] },
    { prompt_version: 2, is_active: false, metadata: { team: 'kids', tags: ['bedtime'] }, variables: ['who', 'note', 'topics'] },
    { prompt_version: 3, is_active: true, metadata: { team: 'ops' }, variables: ['who'] },
  ]);
  expect((await alice.query(`SELECT metadata FROM svc_prompt_get('tagged', 1)`)).rows[0].metadata).toEqual({ team: 'kids', tags: ['bedtime'] });
  expect((await alice.query(`SELECT metadata FROM svc_prompt_list() WHERE prompt_name = 'tagged'`)).rows[0].metadata).toEqual({ team: 'ops' });
  // A prompt made without metadata has {}.
  await alice.query(`SELECT svc_prompt_create('plain', 'x')`);
  expect((await alice.query(`SELECT metadata FROM svc_prompt_get('plain')`)).rows[0].metadata).toEqual({});
  await alice.query(`SELECT svc_prompt_delete('plain')`);

  const render = async (args: string) => (await alice.query(`SELECT svc_prompt_render('tagged', ${args}) AS t`)).rows[0].t as string;
  expect(await render(`'{"who": "  Lily ", "topics": ["a ball", "a dog"]}', version := 1`)).toBe('Dear LILY, a ball, a dog.');
  expect(await render(`'{"who": "Tom", "topics": null}', version := 1`)).toBe('Dear TOM, nothing.');
  expect(await render(`'{"who": "ÉVA", "note": " – très bien", "topics": ["x", "y", "z"]}', version := 2`)).toBe('Hi éva – tr (3)');
  // Strict (the default): a missing variable is an error naming it; strict := false renders it empty.
  expect(await failure(alice, `SELECT svc_prompt_render('tagged', '{}', version := 2)`)).toMatchObject({
    code: '22023',
    message: "svc_prompt_render: variables must give what prompt 'tagged' version 2 reads: 'who' is missing (used at line 1, column 4)",
  });
  expect(await render(`'{}', version := 2, strict := false`)).toBe('Hi  ()');
  expect(await render(`'{"who": "Tom"}', strict := false`)).toBe('v3 Tom');
  const cases: Array<[string, string, string]> = [
    [`SELECT svc_prompt_render('tagged', '{}', strict := NULL)`, '22004', 'svc_prompt_render: strict must not be NULL'],
    [
      `SELECT svc_prompt_render('tagged', '{"who": "x", "topics": "a"}', version := 1)`,
      '22023',
      "svc_prompt_render: variables must give what prompt 'tagged' version 1 reads: 'topics' must be an array to join (is a string; filter join at line 1, column 32)",
    ],
    [
      `SELECT svc_prompt_update('tagged', '{{ who | title }}')`,
      '22023',
      "svc_prompt_update: template is not a valid template: unknown filter 'title' at line 1, column 1 (filters: upper, lower, trim, length, default, join, truncate)",
    ],
    [
      `SELECT svc_prompt_update('tagged', '{{ who | truncate }}')`,
      '22023',
      "svc_prompt_update: template is not a valid template: filter 'truncate' at line 1, column 1 needs an argument: truncate(40)",
    ],
    [`SELECT svc_prompt_update('tagged', 'x', metadata := '[1]')`, '22023', 'svc_prompt_update: metadata must be a JSON object (got an array)'],
    [
      `SELECT svc_prompt_create('m', 'x', metadata := jsonb_build_object('a', repeat('b', 10000)))`,
      '22023',
      'svc_prompt_create: metadata must be at most 10000 characters as JSON (got 10008)',
    ],
    [`SELECT * FROM svc_prompt_versions('nope')`, '42704', "svc_prompt_versions: name 'nope' is no prompt of yours"],
    [`SELECT * FROM svc_prompt_versions(NULL)`, '22004', 'svc_prompt_versions: name must not be NULL'],
  ];
  for (const [sql, code, message] of cases) expect({ sql, ...(await failure(alice, sql)) }).toMatchObject({ sql, code, message });
  // Another role's prompt of that name is not found.
  expect(await failure(bob, `SELECT * FROM svc_prompt_versions('tagged')`)).toMatchObject({ code: '42704' });
  await alice.query(`SELECT svc_prompt_delete('tagged')`);
});
