-- plv8.subtransaction and per-statement subtransactions: rollbacks visible in data
CREATE EXTENSION IF NOT EXISTS plv8;
CREATE TABLE sx_t (id int PRIMARY KEY, v text);
CREATE FUNCTION sx_demo() RETURNS text LANGUAGE plv8 AS $$
  plv8.execute("INSERT INTO sx_t VALUES (1, 'before')");
  try {
    plv8.subtransaction(function () {
      plv8.execute("INSERT INTO sx_t VALUES (2, 'inside, rolled back')");
      plv8.execute("INSERT INTO sx_t VALUES (1, 'duplicate')");
    });
  } catch (e) {
    plv8.elog(NOTICE, 'subtransaction failed:', e.message);
  }
  plv8.subtransaction(function () {
    plv8.execute("INSERT INTO sx_t VALUES (3, 'inside, committed')");
  });
  plv8.execute("INSERT INTO sx_t VALUES (4, 'after')");
  return 'done';
$$;
SELECT sx_demo();
SELECT * FROM sx_t ORDER BY id;
-- a JS exception (not only a SQL error) rolls the subtransaction back and is rethrown as is
CREATE FUNCTION sx_js_error() RETURNS text LANGUAGE plv8 AS $$
  try {
    plv8.subtransaction(function () {
      plv8.execute("INSERT INTO sx_t VALUES (5, 'rolled back by JS error')");
      throw {custom: 'object'};
    });
  } catch (e) {
    return 'rethrown: ' + JSON.stringify(e);
  }
$$;
SELECT sx_js_error();
SELECT count(*) FROM sx_t WHERE id = 5;
-- the subtransaction's return value is passed through
CREATE FUNCTION sx_value() RETURNS int LANGUAGE plv8 AS $$ return plv8.subtransaction(function () { return 41 + 1; }); $$;
SELECT sx_value();
-- nested subtransactions
CREATE FUNCTION sx_nested() RETURNS text LANGUAGE plv8 AS $$
  plv8.subtransaction(function () {
    plv8.execute("INSERT INTO sx_t VALUES (6, 'outer')");
    try {
      plv8.subtransaction(function () {
        plv8.execute("INSERT INTO sx_t VALUES (7, 'inner')");
        throw new Error('inner fails');
      });
    } catch (e) { }
  });
  return 'ok';
$$;
SELECT sx_nested();
SELECT id FROM sx_t WHERE id IN (6, 7) ORDER BY id;
-- an uncaught error inside a subtransaction aborts the whole statement
CREATE FUNCTION sx_uncaught() RETURNS void LANGUAGE plv8 AS $$
  plv8.execute("INSERT INTO sx_t VALUES (8, 'lost')");
  plv8.subtransaction(function () { plv8.execute('SELECT 1/0'); });
$$;
SELECT sx_uncaught();
SELECT count(*) FROM sx_t WHERE id = 8;
-- argument checks
DO $$ plv8.subtransaction(42); $$ LANGUAGE plv8;
-- a statement-level failure inside a loop leaves earlier statements in place
CREATE FUNCTION sx_loop() RETURNS int LANGUAGE plv8 AS $$
  var ok = 0;
  for (var i = 100; i < 110; i++) {
    try { plv8.execute('INSERT INTO sx_t VALUES ($1, $2)', [i % 2 ? 1 : i, 'loop']); ok++; } catch (e) { }
  }
  return ok;
$$;
SELECT sx_loop();
SELECT count(*) FROM sx_t WHERE v = 'loop';
