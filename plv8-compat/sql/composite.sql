-- composite types and records
CREATE EXTENSION IF NOT EXISTS plv8;
SET timezone = 'UTC';
CREATE TYPE comp_t AS (id int, name text, tags text[], at timestamptz);
CREATE FUNCTION comp_in(c comp_t) RETURNS text LANGUAGE plv8 AS $$
  return [typeof c, c.id, c.name, JSON.stringify(c.tags), c.at === null ? 'null' : c.at.toISOString(), Object.keys(c).join('/')].join(' ');
$$;
SELECT comp_in(ROW(1, 'one', ARRAY['a', 'b'], '2020-01-01 00:00:00+00')::comp_t);
SELECT comp_in(ROW(2, NULL, NULL, NULL)::comp_t);
SELECT comp_in(NULL);
CREATE FUNCTION comp_out(id int) RETURNS comp_t LANGUAGE plv8 AS $$
  return {id: id, name: 'n' + id, tags: ['x'], at: new Date(Date.UTC(2021, 5, 1)), extra: 'ignored'};
$$;
SELECT * FROM comp_out(5);
SELECT (comp_out(6)).name;
CREATE FUNCTION comp_undef() RETURNS comp_t LANGUAGE plv8 AS $$ return {id: 1, name: undefined, tags: null, at: undefined}; $$;
SELECT * FROM comp_undef();
-- every column needs a property
CREATE FUNCTION comp_missing() RETURNS comp_t LANGUAGE plv8 AS $$ return {id: 1}; $$;
SELECT * FROM comp_missing();
CREATE FUNCTION comp_notobj() RETURNS comp_t LANGUAGE plv8 AS $$ return 42; $$;
SELECT * FROM comp_notobj();
CREATE FUNCTION comp_null() RETURNS comp_t LANGUAGE plv8 AS $$ return null; $$;
SELECT comp_null() IS NULL AS is_null;
-- OUT parameters
CREATE FUNCTION comp_outp(x int, OUT a int, OUT b text) LANGUAGE plv8 AS $$ return {a: x * 2, b: 'b' + x}; $$;
SELECT * FROM comp_outp(21);
-- a single OUT parameter is a scalar result
CREATE FUNCTION comp_out1(x int, OUT a int) LANGUAGE plv8 AS $$ return x + 1; $$;
SELECT comp_out1(1);
-- RETURNS record with a column definition list
CREATE FUNCTION comp_rec() RETURNS record LANGUAGE plv8 AS $$ return {p: 1, q: 'two'}; $$;
SELECT * FROM comp_rec() AS t(p int, q text);
SELECT comp_rec();
-- anonymous record arguments
CREATE FUNCTION comp_anon(r record) RETURNS text LANGUAGE plv8 AS $$ return JSON.stringify(r); $$;
SELECT comp_anon(ROW(1, 'a', true));
CREATE TABLE comp_tab (k int, v text, j jsonb);
INSERT INTO comp_tab VALUES (1, 'x', '{"z": 1}');
SELECT comp_anon(t) FROM comp_tab t;
-- nested composite and arrays of composite
CREATE TYPE comp_outer AS (inner_c comp_t, list comp_t[]);
CREATE FUNCTION comp_nested(o comp_outer) RETURNS comp_outer LANGUAGE plv8 AS $$
  o.inner_c.name = o.inner_c.name.toUpperCase();
  o.list.push({id: 9, name: 'new', tags: [], at: null});
  return o;
$$;
SELECT comp_nested(ROW(ROW(1, 'in', '{}', NULL)::comp_t, ARRAY[ROW(2, 'l', '{t}', NULL)::comp_t])::comp_outer);
-- dropped columns are skipped, ALTER TYPE is followed
CREATE TYPE comp_alt AS (a int, b int, c int);
CREATE FUNCTION comp_alt_out() RETURNS comp_alt LANGUAGE plv8 AS $$ return {a: 1, b: 2, c: 3, d: 4}; $$;
SELECT * FROM comp_alt_out();
ALTER TYPE comp_alt DROP ATTRIBUTE b;
ALTER TYPE comp_alt ADD ATTRIBUTE d int;
SELECT * FROM comp_alt_out();
CREATE FUNCTION comp_alt_in(x comp_alt) RETURNS text LANGUAGE plv8 AS $$ return JSON.stringify(x); $$;
SELECT comp_alt_in(ROW(1, 3, 4)::comp_alt);
