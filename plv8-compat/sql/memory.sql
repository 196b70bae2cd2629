-- Memory stays bounded inside ONE function call.  SPI's executor calls return
-- in its per-procedure context ("SPI Proc", freed only by SPI_finish at the end
-- of the call); the callbacks used to keep allocating there, so every
-- plv8.execute() / plan.execute() / cursor fetch of a long loop left its
-- parameters and converted rows behind (~40 MB for 20,000 executes), and every
-- failed plv8.execute() its unsaved plan.
CREATE EXTENSION IF NOT EXISTS plv8;
CREATE FUNCTION mem_loop(n int) RETURNS jsonb LANGUAGE plv8 AS $$
  function mem() {
    return Number(plv8.execute('SELECT sum(total_bytes)::float8 AS t FROM pg_backend_memory_contexts')[0].t);
  }
  var plan = plv8.prepare('SELECT $1::int + 1 AS x, repeat($2, 3) AS y', ['int', 'text']);
  var bound = 1024 * 1024, out = {}, s, m0;
  function check(name, body) {
    for (var i = 0; i < 200; i++) body(i);	// warm the caches
    s = 0;
    m0 = mem();
    for (var i = 0; i < n; i++) s += body(i);
    out[name] = mem() - m0 < bound;
    out[name + '_sum'] = s;
  }
  check('execute', function (i) { return plv8.execute('SELECT $1::int + 1 AS x', [i])[0].x; });
  check('execute_varargs', function (i) { return plv8.execute('SELECT $1::int + $2 AS x', i, 1)[0].x; });
  check('plan_execute', function (i) { return plan.execute([i, 'ab'])[0].x; });
  check('cursor', function (i) {
    var c = plan.cursor([i, 'ab']), r = c.fetch().x;
    c.move(1); c.fetch(5); c.close();
    return r;
  });
  check('execute_error', function (i) {
    try { plv8.execute('SELECT 1 / $1', [0]); } catch (e) { return 1; }
    return 0;
  });
  check('prepare_free', function (i) {
    var p = plv8.prepare('SELECT $1::int AS v'), r = p.execute([i])[0].v;
    p.free();
    return r;
  });
  plan.free();
  return out;
$$;
SELECT key, value FROM jsonb_each((SELECT mem_loop(20000))) ORDER BY key;
-- SPI is disconnected when a call fails, too: a failed inner call whose error
-- is caught without a subtransaction (here a domain CHECK run by
-- plv8.return_next) must not leave its SPI connection on the stack for the
-- outer function to use and the transaction to warn about.
CREATE FUNCTION mem_chk_pos(v int) RETURNS bool LANGUAGE plv8 AS $$
  plv8.execute('SELECT 1');
  if (v < 0) throw new Error('negative');
  return true;
$$;
CREATE DOMAIN mem_posint AS int CHECK (mem_chk_pos(VALUE));
CREATE FUNCTION mem_srf_dom() RETURNS SETOF mem_posint LANGUAGE plv8 AS $$
  var r = [];
  try { plv8.return_next(-1); } catch (e) { r.push(e.message); }
  r.push(plv8.execute('SELECT 2 AS x')[0].x);
  plv8.return_next(1);
  plv8.elog(NOTICE, JSON.stringify(r));
$$;
SELECT * FROM mem_srf_dom();
SELECT * FROM mem_srf_dom();
-- ... and when the JS throws after using SPI (caught by a PL/pgSQL block)
CREATE FUNCTION mem_throw() RETURNS int LANGUAGE plv8 AS $$
  plv8.execute('SELECT 1');
  throw new Error('boom');
$$;
DO $$
BEGIN
  FOR i IN 1..3 LOOP
    BEGIN
      PERFORM mem_throw();
    EXCEPTION WHEN OTHERS THEN
      RAISE NOTICE 'caught: %', SQLERRM;
    END;
  END LOOP;
END $$;
-- The row info cached for a named composite result is freed when ALTER TYPE
-- replaces it (it used to pile up in the function's memory context).
CREATE TYPE mem_rt AS (a int);
CREATE FUNCTION mem_row(n int) RETURNS mem_rt LANGUAGE plv8 AS $$ return {a: n, c: 'x'}; $$;
CREATE FUNCTION mem_setof(n int) RETURNS SETOF mem_rt LANGUAGE plv8 AS $$ return [{a: n, c: 'y'}]; $$;
SELECT (mem_row(1)).a, (SELECT a FROM mem_setof(2));
CREATE TEMP TABLE mem_before AS
  SELECT sum(total_bytes) AS bytes FROM pg_backend_memory_contexts WHERE name = 'plv8 function';
DO $$
BEGIN
  FOR i IN 1..200 LOOP
    IF i % 2 = 1 THEN
      ALTER TYPE mem_rt ADD ATTRIBUTE c text;
    ELSE
      ALTER TYPE mem_rt DROP ATTRIBUTE c;
    END IF;
    PERFORM mem_row(i);
    EXECUTE 'SELECT * FROM mem_setof($1)' USING i;
  END LOOP;
END $$;
SELECT (mem_row(7)).a, (SELECT a FROM mem_setof(8));
SELECT (SELECT sum(total_bytes) FROM pg_backend_memory_contexts WHERE name = 'plv8 function')
         - (SELECT bytes FROM mem_before) < 65536 AS function_memory_bounded,
       (SELECT count(*) FROM pg_backend_memory_contexts WHERE name = 'plv8 row type') AS row_type_contexts;
-- a row type replaced while an outer call of the same function still uses it
-- (ALTER TYPE + recursion inside a set-returning call) stays valid until that
-- call ends
CREATE TYPE mem_rt2 AS (a int);
CREATE FUNCTION mem_rec(n int) RETURNS SETOF mem_rt2 LANGUAGE plv8 AS $$
  if (n > 0) {
    plv8.execute('ALTER TYPE mem_rt2 ADD ATTRIBUTE b' + n + ' int');
    plv8.execute('SELECT count(*) FROM mem_rec($1)', [n - 1]);
  }
  plv8.return_next({a: n, b1: n, b2: n, b3: n});
  plv8.return_next({a: n + 100, b1: n, b2: n, b3: n});
$$;
SELECT a FROM mem_rec(3);
SELECT * FROM mem_rec(0);
SELECT count(*) AS row_type_contexts FROM pg_backend_memory_contexts WHERE name = 'plv8 row type';
