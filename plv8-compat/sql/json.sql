-- json / jsonb both ways, JSON.stringify semantics
CREATE EXTENSION IF NOT EXISTS plv8;
SET timezone = 'UTC';
CREATE FUNCTION js_in(j json, b jsonb) RETURNS text LANGUAGE plv8 AS $$
  return [typeof j, JSON.stringify(j), typeof b, JSON.stringify(b), Array.isArray(b.arr), typeof b.n].join(' ');
$$;
SELECT js_in('{"a": [1, 2, {"b": null}], "s": "x"}', '{"arr": [1, "two", false], "n": 1.5}');
CREATE FUNCTION js_scalar(j json, b jsonb) RETURNS text LANGUAGE plv8 AS $$ return typeof j + ':' + j + ' ' + typeof b + ':' + b; $$;
SELECT js_scalar('"str"', '42'), js_scalar('true', '"s"'), js_scalar('null', 'null');

CREATE FUNCTION js_out(v text) RETURNS json LANGUAGE plv8 AS $$ return eval('(' + v + ')'); $$;
CREATE FUNCTION jsb_out(v text) RETURNS jsonb LANGUAGE plv8 AS $$ return eval('(' + v + ')'); $$;
-- objects and arrays are stringified; undefined members are dropped; Dates become ISO strings
SELECT js_out('{a: 1, u: undefined, f: function () {}, d: new Date(Date.UTC(2020, 0, 1)), n: null, arr: [1, undefined, 3]}');
SELECT jsb_out('{a: 1, u: undefined, d: new Date(Date.UTC(2020, 0, 1)), nested: {x: [true]}}');
-- json: a JS string is raw JSON text (validated); jsonb: a JS string becomes a JSON string
SELECT js_out('"{\"raw\": true}"'), jsb_out('"{\"raw\": true}"');
SELECT js_out('"not json"');
SELECT js_out('42'), jsb_out('42'), js_out('true'), jsb_out('null') IS NULL AS jsonb_null_is_sql_null;
SELECT js_out('undefined') IS NULL AS undefined_is_null, jsb_out('undefined') IS NULL AS undefined_is_null_b;
-- toJSON is honoured
SELECT jsb_out('{toJSON: function () { return {custom: 1}; }}');
-- BigInt cannot be serialized by JSON.stringify: a clear error, as in plv8
SELECT js_out('{big: 10n}');
SELECT jsb_out('[1n]');
-- ... unless the function converts it itself
SELECT jsb_out('JSON.parse(JSON.stringify({big: 10n}, function (k, v) { return typeof v === "bigint" ? v.toString() : v; }))');
-- cycles are an error too
SELECT js_out('(function () { var o = {}; o.self = o; return o; })()');
-- NUL: \u0000 inside json text is kept as an escape, and jsonb rejects it like PostgreSQL does
SELECT js_out('{s: "a\u0000b"}');
SELECT jsb_out('{s: "a\u0000b"}');
-- round trip through jsonb
CREATE FUNCTION jsb_echo(x jsonb) RETURNS jsonb LANGUAGE plv8 AS $$ x.added = [1, 2]; return x; $$;
SELECT jsb_echo('{"k": {"deep": [1, {"z": "y"}]}}');
-- json[] and jsonb arguments inside arrays
CREATE FUNCTION jsb_arr(x jsonb[]) RETURNS text LANGUAGE plv8 AS $$ return x.map(function (e) { return e === null ? 'null' : typeof e; }).join(','); $$;
SELECT jsb_arr(ARRAY['{"a":1}', '[1]', NULL, '"s"']::jsonb[]);
