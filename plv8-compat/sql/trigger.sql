-- triggers: NEW/OLD/TG_* variables, modifying and skipping rows, statement triggers
CREATE EXTENSION IF NOT EXISTS plv8;
CREATE TABLE trg_t (id int PRIMARY KEY, name text, n int);
CREATE FUNCTION trg_show() RETURNS trigger LANGUAGE plv8 AS $$
  plv8.elog(NOTICE, TG_NAME, TG_WHEN, TG_LEVEL, TG_OP, TG_TABLE_NAME, TG_TABLE_SCHEMA,
            typeof TG_RELID, JSON.stringify(TG_ARGV), JSON.stringify(NEW), JSON.stringify(OLD));
  return NEW;
$$;
CREATE TRIGGER trg_a BEFORE INSERT OR UPDATE OR DELETE ON trg_t FOR EACH ROW EXECUTE FUNCTION trg_show('x', 'y');
INSERT INTO trg_t VALUES (1, 'one', 10);
UPDATE trg_t SET n = 11 WHERE id = 1;
DELETE FROM trg_t WHERE id = 1;
DROP TRIGGER trg_a ON trg_t;
SELECT count(*) FROM trg_t;
-- modify NEW; skip rows by returning null
CREATE FUNCTION trg_modify() RETURNS trigger LANGUAGE plv8 AS $$
  if (NEW.n < 0) return null;
  NEW.name = NEW.name.toUpperCase();
  NEW.n = NEW.n * 2;
  return NEW;
$$;
CREATE TRIGGER trg_b BEFORE INSERT ON trg_t FOR EACH ROW EXECUTE FUNCTION trg_modify();
INSERT INTO trg_t VALUES (1, 'abc', 5), (2, 'skip', -1), (3, 'def', 7);
SELECT * FROM trg_t ORDER BY id;
DROP TRIGGER trg_b ON trg_t;
-- returning undefined keeps the row unchanged
CREATE FUNCTION trg_undef() RETURNS trigger LANGUAGE plv8 AS $$ NEW.n = 999; $$;
CREATE TRIGGER trg_c BEFORE UPDATE ON trg_t FOR EACH ROW EXECUTE FUNCTION trg_undef();
UPDATE trg_t SET n = 1 WHERE id = 1;
SELECT * FROM trg_t WHERE id = 1;
DROP TRIGGER trg_c ON trg_t;
-- BEFORE DELETE returning null cancels the delete
CREATE FUNCTION trg_keep() RETURNS trigger LANGUAGE plv8 AS $$ return OLD.id === 1 ? null : OLD; $$;
CREATE TRIGGER trg_d BEFORE DELETE ON trg_t FOR EACH ROW EXECUTE FUNCTION trg_keep();
DELETE FROM trg_t;
SELECT id FROM trg_t ORDER BY id;
DROP TRIGGER trg_d ON trg_t;
-- AFTER and statement-level triggers (the return value is ignored)
CREATE TABLE trg_log (msg text);
CREATE FUNCTION trg_stmt() RETURNS trigger LANGUAGE plv8 AS $$
  plv8.execute('INSERT INTO trg_log VALUES ($1)', [TG_WHEN + ' ' + TG_LEVEL + ' ' + TG_OP + ' new=' + typeof NEW + ' old=' + typeof OLD]);
  return null;
$$;
CREATE TRIGGER trg_e AFTER UPDATE ON trg_t FOR EACH STATEMENT EXECUTE FUNCTION trg_stmt();
CREATE TRIGGER trg_f AFTER UPDATE ON trg_t FOR EACH ROW EXECUTE FUNCTION trg_stmt();
CREATE TRIGGER trg_g BEFORE TRUNCATE ON trg_t FOR EACH STATEMENT EXECUTE FUNCTION trg_stmt();
UPDATE trg_t SET n = n + 1;
TRUNCATE trg_t;
SELECT msg, count(*) FROM trg_log GROUP BY msg ORDER BY msg;
DROP TRIGGER trg_e ON trg_t;
DROP TRIGGER trg_f ON trg_t;
DROP TRIGGER trg_g ON trg_t;
-- errors inside triggers abort the statement; bad rows are reported
CREATE FUNCTION trg_err() RETURNS trigger LANGUAGE plv8 AS $$
  if (NEW.id === 13) throw new Error('unlucky id ' + NEW.id);
  if (NEW.id === 14) return {id: 14};
  return NEW;
$$;
CREATE TRIGGER trg_h BEFORE INSERT ON trg_t FOR EACH ROW EXECUTE FUNCTION trg_err();
INSERT INTO trg_t VALUES (12, 'ok', 1);
INSERT INTO trg_t VALUES (13, 'bad', 1);
INSERT INTO trg_t VALUES (14, 'bad', 1);
SELECT id FROM trg_t ORDER BY id;
DROP TRIGGER trg_h ON trg_t;
-- INSTEAD OF trigger on a view
CREATE VIEW trg_v AS SELECT id, name FROM trg_t;
CREATE FUNCTION trg_instead() RETURNS trigger LANGUAGE plv8 AS $$
  plv8.execute('INSERT INTO trg_t VALUES ($1, $2, 0)', [NEW.id, NEW.name + '!']);
  return NEW;
$$;
CREATE TRIGGER trg_i INSTEAD OF INSERT ON trg_v FOR EACH ROW EXECUTE FUNCTION trg_instead();
INSERT INTO trg_v VALUES (20, 'via view');
SELECT * FROM trg_t WHERE id = 20;
