-- plv8.prepare, plans and cursors
CREATE EXTENSION IF NOT EXISTS plv8;
CREATE TABLE cur_t AS SELECT g AS id, 'row' || g AS name FROM generate_series(1, 10) g;
CREATE FUNCTION cur_run(code text) RETURNS text LANGUAGE plv8 AS $$
  return JSON.stringify(eval('(function () {' + code + '})()'));
$$;
-- plan with declared types, executed several times
SELECT cur_run($$
  var plan = plv8.prepare('SELECT name FROM cur_t WHERE id = $1', ['int']);
  var out = [plan.execute([3])[0].name, plan.execute(4)[0].name];
  plan.free();
  return out;
$$);
-- without types: deduced from the query
SELECT cur_run($$
  var plan = plv8.prepare('SELECT count(*)::int AS c FROM cur_t WHERE id > $1 AND name <> $2');
  var r = plan.execute([5, 'row7'])[0].c;
  plan.free();
  return r;
$$);
-- DML through a plan gives counts
SELECT cur_run($$
  var plan = plv8.prepare('UPDATE cur_t SET name = name || $2 WHERE id <= $1', ['int', 'text']);
  var n = plan.execute([2, '!']);
  plan.free();
  return n;
$$);
-- wrong argument counts and freed plans are errors
SELECT cur_run($$ var p = plv8.prepare('SELECT $1::int AS x', ['int']); return p.execute([]); $$);
SELECT cur_run($$ var p = plv8.prepare('SELECT $1::int AS x', ['int']); return p.execute(1, 2); $$);
SELECT cur_run($$ var p = plv8.prepare('SELECT 1 AS x'); p.free(); return p.execute(); $$);
SELECT cur_run($$ return plv8.prepare('SELECT 1', ['no_such_type']); $$);
SELECT cur_run($$ return plv8.prepare('SELEC 1'); $$);
-- a plan survives across calls when kept in a global
SELECT cur_run($$ plan_global = plv8.prepare('SELECT $1::text || $1::text AS d', ['text']); return 'prepared'; $$);
SELECT cur_run($$ return plan_global.execute(['ab'])[0].d; $$);
SELECT cur_run($$ plan_global.free(); return 'freed'; $$);
-- cursors: fetch() one row or undefined, fetch(n), move(n), close()
SELECT cur_run($$
  var plan = plv8.prepare('SELECT id FROM cur_t WHERE id > $1 ORDER BY id', ['int']);
  var c = plan.cursor([4]);
  var out = [];
  out.push(c.fetch().id);
  out.push(c.fetch(2).map(function (r) { return r.id; }));
  c.move(1);
  out.push(c.fetch().id);
  out.push(c.fetch(10).length);
  out.push(c.fetch() === undefined);
  out.push(c.fetch(3).length);
  c.close();
  plan.free();
  return out;
$$);
-- cursor without parameters; fetch(-n) goes backwards on a scrollable cursor
SELECT cur_run($$
  var plan = plv8.prepare('SELECT id FROM cur_t ORDER BY id');
  var c = plan.cursor();
  c.fetch(5);
  var back = c.fetch(-2).map(function (r) { return r.id; });
  c.close();
  plan.free();
  return back;
$$);
-- a closed cursor is an error
SELECT cur_run($$ var p = plv8.prepare('SELECT 1 AS x'); var c = p.cursor(); c.close(); return c.fetch(); $$);
-- a cursor over a failing query reports the error at fetch time, catchable
SELECT cur_run($$
  var p = plv8.prepare('SELECT 1 / (id - 3) AS x FROM cur_t ORDER BY id');
  var c = p.cursor();
  try { c.fetch(10); return 'no error'; } catch (e) { return e.message + ' ' + e.sqlerrcode; }
$$);
