-- arrays: flat JS arrays, NULL elements, one dimension back
CREATE EXTENSION IF NOT EXISTS plv8;
CREATE FUNCTION arr_in(a int[], t text[], b int8[], f float8[]) RETURNS text LANGUAGE plv8 AS $$
  return JSON.stringify(a) + ' ' + JSON.stringify(t) + ' ' + b.map(function (x) { return x === null ? 'null' : typeof x + x; }).join(',') + ' ' + JSON.stringify(f);
$$;
SELECT arr_in(ARRAY[1, NULL, 3], ARRAY['a', NULL, 'c'], ARRAY[1, NULL]::int8[], ARRAY[1.5, NULL]);
SELECT arr_in('{}', '{}', '{}', '{}');
-- multi-dimensional arrays are flattened
CREATE FUNCTION arr_flat(a int[]) RETURNS text LANGUAGE plv8 AS $$ return JSON.stringify(a) + ' len=' + a.length; $$;
SELECT arr_flat('{{1,2},{3,4}}');
SELECT arr_flat('[0:2]={7,8,9}');
-- JS arrays back, with null/undefined elements as NULL
CREATE FUNCTION arr_out(v text) RETURNS int[] LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT arr_out('[1, null, 3, undefined]'), arr_out('[]'), arr_out('"{4,5}"');
SELECT arr_out('[1, "x"]');
SELECT arr_out('[[1, 2], [3, 4]]');
CREATE FUNCTION arr_text_out() RETURNS text[] LANGUAGE plv8 AS $$ return ['a', null, 'b c', '"q"']; $$;
SELECT arr_text_out();
CREATE FUNCTION arr_date_out() RETURNS date[] LANGUAGE plv8 AS $$ return [new Date(Date.UTC(2020, 0, 1)), '2021-02-03', null]; $$;
SELECT arr_date_out();
CREATE FUNCTION arr_bytea(x bytea[]) RETURNS bytea[] LANGUAGE plv8 AS $$ return x.map(function (b) { return b && b.reverse(); }); $$;
SELECT arr_bytea(ARRAY['\x0102'::bytea, NULL]);
CREATE FUNCTION arr_uuid(x uuid[]) RETURNS text LANGUAGE plv8 AS $$ return typeof x[0] + ' ' + x[0]; $$;
SELECT arr_uuid(ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid]);
CREATE FUNCTION arr_int8_out() RETURNS int8[] LANGUAGE plv8 AS $$ return [1n, 2, 9223372036854775807n]; $$;
SELECT arr_int8_out();
CREATE FUNCTION arr_jsonb_out() RETURNS jsonb[] LANGUAGE plv8 AS $$ return [{a: 1}, 'str', null, [1]]; $$;
SELECT arr_jsonb_out();
-- a non-array value goes through the array type's input
CREATE FUNCTION arr_bad() RETURNS int[] LANGUAGE plv8 AS $$ return 5; $$;
SELECT arr_bad();
