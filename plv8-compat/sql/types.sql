-- PostgreSQL -> JS and JS -> PostgreSQL scalar type mapping
CREATE EXTENSION IF NOT EXISTS plv8;
SET timezone = 'UTC';
-- typeof of each argument as seen by JS
CREATE FUNCTION ty_js(b bool, i2 int2, i4 int4, o oid, i8 int8, f4 float4, f8 float8, n numeric,
                      t text, vc varchar, bp char(4), d date, ts timestamp, tz timestamptz,
                      u uuid, iv interval, ba bytea)
RETURNS text LANGUAGE plv8 AS $$
  var out = [];
  for (var i = 0; i < arguments.length; i++) {
    var v = arguments[i];
    var k = v === null ? 'null' : (v instanceof Date ? 'Date' : (v instanceof Uint8Array ? 'Uint8Array' : typeof v));
    out.push(k + ':' + (v instanceof Date ? v.toISOString() : (v instanceof Uint8Array ? Array.from(v).join('.') : String(v))));
  }
  return out.join(' | ');
$$;
SELECT ty_js(true, 2::int2, 4, 26::oid, 9007199254740993, 1.5::float4, 2.25, 12.5::numeric,
             'txt', 'vc', 'ab', '2024-02-29', '2024-01-02 03:04:05.678', '2024-01-02 03:04:05+02',
             'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day 02:00', '\x00ff10');
SELECT ty_js(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
             NULL, NULL, NULL);

-- domains over scalars arrive as the output string; returning through the domain checks it
CREATE DOMAIN ty_posint AS int CHECK (VALUE > 0);
CREATE FUNCTION ty_dom(x ty_posint) RETURNS text LANGUAGE plv8 AS $$ return typeof x + ':' + x; $$;
SELECT ty_dom(5);
CREATE FUNCTION ty_dom_ret(x int) RETURNS ty_posint LANGUAGE plv8 AS $$ return x; $$;
SELECT ty_dom_ret(3);
SELECT ty_dom_ret(-3);

-- JS -> PG: each return type
CREATE FUNCTION ty_ret_bool(v text) RETURNS bool LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_bool('true'), ty_ret_bool('0'), ty_ret_bool('1'), ty_ret_bool('"yes"'), ty_ret_bool('null'), ty_ret_bool('undefined');
-- as in plv8, anything but a boolean goes through boolin as String(v)
SELECT ty_ret_bool('"x"');
SELECT ty_ret_bool('2');
CREATE FUNCTION ty_ret_int4(v text) RETURNS int4 LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_int4('42'), ty_ret_int4('2.5'), ty_ret_int4('-7n'), ty_ret_int4('"123"');
-- numbers convert as in plv8 (ToInt32: truncated, modulo 2^32), strings and BigInts through int4in
SELECT ty_ret_int4('2147483648');
SELECT ty_ret_int4('"abc"');
SELECT ty_ret_int4('NaN');
SELECT ty_ret_int4('2147483648n');
CREATE FUNCTION ty_ret_int2(v text) RETURNS int2 LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_int2('32767');
SELECT ty_ret_int2('32768');
CREATE FUNCTION ty_ret_int8(v text) RETURNS int8 LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_int8('9223372036854775807n'), ty_ret_int8('-9223372036854775808n'), ty_ret_int8('12345'), ty_ret_int8('"77"');
-- as in plv8: a BigInt wraps modulo 2^64, a number saturates
SELECT ty_ret_int8('9223372036854775808n');
SELECT ty_ret_int8('1e19');
-- a number goes through float8_numeric as in plv8 (15 significant digits), a BigInt exactly
CREATE FUNCTION ty_ret_numeric(v text) RETURNS numeric LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_numeric('0.1 + 0.2'), ty_ret_numeric('123456789012345678901234567890n'), ty_ret_numeric('1e21'), ty_ret_numeric('"3.14"');
SELECT ty_ret_numeric('Infinity'), ty_ret_numeric('NaN');
-- a numeric(p,s) column still rounds a number to its scale
CREATE TYPE ty_money AS (amount numeric(6,2));
CREATE FUNCTION ty_ret_money(v float8) RETURNS ty_money LANGUAGE plv8 AS $$ return { amount: v }; $$;
SELECT ty_ret_money(2.345), ty_ret_money(0.1 + 0.2);
SELECT ty_ret_money(123456.7);
CREATE FUNCTION ty_ret_float8(v text) RETURNS float8 LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_float8('1/3'), ty_ret_float8('-Infinity'), ty_ret_float8('"2.5"');
CREATE FUNCTION ty_ret_float4(v text) RETURNS float4 LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_float4('0.5');
CREATE FUNCTION ty_ret_text(v text) RETURNS text LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_text('"héllo ✓"'), ty_ret_text('42'), ty_ret_text('({a:1})'), ty_ret_text('[1,2]'), ty_ret_text('true');
SELECT ty_ret_text('"a\u0000b"');
CREATE FUNCTION ty_ret_varchar(v text) RETURNS varchar(3) LANGUAGE plv8 AS $$ return v; $$;
SELECT ty_ret_varchar('abc');
-- like PL/pgSQL: a function result carries no typmod, so varchar(3) does not truncate
SELECT ty_ret_varchar('abcd');
CREATE FUNCTION ty_ret_date(v text) RETURNS date LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_date('new Date(Date.UTC(2020, 1, 29))'), ty_ret_date('"2021-03-04"');
SELECT ty_ret_date('new Date(NaN)');
CREATE FUNCTION ty_ret_ts(v text) RETURNS timestamp LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_ts('new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 678))'), ty_ret_ts('"2021-03-04 05:06:07"');
CREATE FUNCTION ty_ret_tz(v text) RETURNS timestamptz LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_tz('new Date(0)'), ty_ret_tz('"2021-03-04 05:06:07+05"');
CREATE FUNCTION ty_ret_uuid(v text) RETURNS uuid LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_uuid('"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"');
SELECT ty_ret_uuid('"nope"');
CREATE FUNCTION ty_ret_interval(v text) RETURNS interval LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_interval('"3 days"');
CREATE FUNCTION ty_ret_bytea(v text) RETURNS bytea LANGUAGE plv8 AS $$ return eval(v); $$;
SELECT ty_ret_bytea('new Uint8Array([1,2,255])'), ty_ret_bytea('new Uint8Array([9,8,7]).buffer'),
       ty_ret_bytea('new Int16Array([1])'), ty_ret_bytea('"\\x0102"'), ty_ret_bytea('new Uint8Array(0)');
-- round trips
CREATE FUNCTION ty_echo_ts(x timestamptz) RETURNS timestamptz LANGUAGE plv8 AS $$ return x; $$;
SELECT ty_echo_ts('2024-06-01 12:34:56.789+00');
CREATE FUNCTION ty_echo_date(x date) RETURNS date LANGUAGE plv8 AS $$ return x; $$;
SELECT ty_echo_date('1999-12-31');
-- an infinite date becomes an invalid JS Date, which cannot go back
CREATE FUNCTION ty_inf_date(x date) RETURNS text LANGUAGE plv8 AS $$ return String(x.getTime()); $$;
SELECT ty_inf_date('infinity');
SELECT ty_echo_date('infinity');
CREATE FUNCTION ty_echo_bytea(x bytea) RETURNS bytea LANGUAGE plv8 AS $$ x[0] = 65; return x; $$;
SELECT ty_echo_bytea('\x000102');
CREATE FUNCTION ty_echo_int8(x int8) RETURNS text LANGUAGE plv8 AS $$ return typeof x + ' ' + (x + 1n); $$;
SELECT ty_echo_int8(9223372036854775806);
CREATE FUNCTION ty_echo_numeric(x numeric) RETURNS numeric LANGUAGE plv8 AS $$ return x * 2; $$;
SELECT ty_echo_numeric(1.25);
-- other types (inet, point, enum) travel as their text form both ways
CREATE TYPE ty_mood AS ENUM ('sad', 'happy');
CREATE FUNCTION ty_other(a inet, p point, m ty_mood) RETURNS text LANGUAGE plv8
AS $$ return [typeof a, a, typeof p, p, typeof m, m].join(' '); $$;
SELECT ty_other('10.0.0.1/8', '(1,2)', 'happy');
CREATE FUNCTION ty_ret_enum(v text) RETURNS ty_mood LANGUAGE plv8 AS $$ return v; $$;
SELECT ty_ret_enum('sad');
SELECT ty_ret_enum('angry');
