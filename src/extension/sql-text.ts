// The one place svc quotes names and values into SQL text it builds (the vectorizer's generated
// functions and statements, the extension script's settings and comments). Quoted as PostgreSQL's
// format('%I') and format('%L') quote them, so the text reads the same whatever
// standard_conforming_strings the session that runs it has: an identifier in double quotes (where a
// backslash is an ordinary character), a literal with a backslash in the E'' form, whose escapes are
// read alike under both settings. Pure: bundled into plv8 and used by the build script.

/** Why a text cannot be put into SQL at all: PostgreSQL's text holds no NUL character. */
function checkNoNul(what: string, text: string): void {
  if (text.includes('\0')) throw new RangeError(`${what} must not contain a NUL character`);
}

/** An identifier, always double-quoted (as format('%I') quotes any name that needs it): `a"b` -> `"a""b"`. */
export function quoteIdent(name: string): string {
  checkNoNul('an SQL identifier', name);
  return `"${name.replace(/"/g, '""')}"`;
}

/** A text literal as format('%L') writes it: `'it''s'`, and `E'a\\b'` for a text with a backslash. */
export function quoteLiteral(text: string): string {
  checkNoNul('an SQL literal', text);
  const quoted = text.replace(/'/g, "''");
  return text.includes('\\') ? `E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/** A relation or function by schema and name, both quoted. */
export const qualified = (schema: string, name: string): string => `${quoteIdent(schema)}.${quoteIdent(name)}`;

/**
 * `body` between dollar quotes whose tag occurs nowhere in it (`$tag$`, else `$tag0$`, `$tag1$`, ...;
 * not even as `$tag` at the body's end, which the closing quote would complete): a name quoted inside
 * the body cannot end the quote early, whatever it holds.
 */
export function dollarQuote(body: string, tag: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(tag)) throw new RangeError(`a dollar-quote tag must be a plain name (got ${JSON.stringify(tag)})`);
  let t = tag;
  for (let i = 0; body.includes(`$${t}`); i++) t = `${tag}${i}`;
  return `$${t}$${body}$${t}$`;
}
