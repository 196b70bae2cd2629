// The format template that turns a chunk into the text a vectorizer embeds, such as
// 'Title: $title\n\n$chunk': a chunk alone often lacks what it is about, and the row's other columns
// can say it. Pure and self-contained, like chunk.ts: bundled into plv8 and into the worker.

/** What a vectorizer embeds when no template is given: the chunk alone. */
export const DEFAULT_TEMPLATE = '$chunk';

/** The name under which a template refers to the chunk; a column of that name cannot be referred to. */
const CHUNK = 'chunk';

/**
 * The bounds on what a template makes of a chunk, so that no row can make the worker build text
 * without end ('$chunk' written 20,000 times over a 5,000-character row took a worker from 1.3 to
 * 7 GB): a template of at most MAX_TEMPLATE_CHARS with at most MAX_TEMPLATE_REFERENCES references
 * ($chunk and columns), and a text to embed of at most MAX_RENDERED_CHARS, about 64,000 tokens or
 * more, past any embedding model's context. svc_vectorize checks what it can when it is declared.
 */
export const MAX_TEMPLATE_CHARS = 4096;
export const MAX_TEMPLATE_REFERENCES = 64;
export const MAX_RENDERED_CHARS = 262_144;

type Part =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'chunk' }
  | { readonly kind: 'column'; readonly name: string };

interface ParsedTemplate {
  readonly parts: readonly Part[];
  /** The first malformed `$`, if any; the parts then hold it as literal text. */
  readonly problem: string | undefined;
}

/** The column names a format template refers to ($name or ${name}; `$chunk` is the chunk itself and not a column; `$$` is a literal `$`), in first-use order, without duplicates. */
export function templateFields(template: string): string[] {
  const names: string[] = [];
  for (const part of parseTemplate(template).parts) {
    if (part.kind === 'column' && !names.includes(part.name)) names.push(part.name);
  }
  return names;
}

/** Why the template is invalid, or undefined: it must contain $chunk (or ${chunk}); a `$` not followed by a name, `{`, or `$` is an error naming its position; `${` without `}` too. Names are [A-Za-z_][A-Za-z0-9_]* (or, in braces, any characters but `}`, so quoted column names like "Title Text" work: ${Title Text}). */
export function templateProblem(template: string): string | undefined {
  // The template comes from a user's configuration, typed or not.
  if (typeof template !== 'string')
    return `template must be a string (is ${template === null ? 'null' : typeof template})`;
  if (template.length > MAX_TEMPLATE_CHARS)
    return `template must be at most ${MAX_TEMPLATE_CHARS} characters (is ${template.length})`;
  const { parts, problem } = parseTemplate(template);
  if (problem !== undefined) return problem;
  const references = parts.filter((part) => part.kind !== 'text').length;
  if (references > MAX_TEMPLATE_REFERENCES)
    return `template may refer to $chunk and columns at most ${MAX_TEMPLATE_REFERENCES} times (does ${references} times)`;
  // Without the chunk every chunk of a row would embed to the same vector.
  if (!parts.some((part) => part.kind === 'chunk'))
    return 'template must contain $chunk (or ${chunk}), where the chunk goes';
  return undefined;
}

/**
 * How long the text to embed for a chunk of `chunkChars` UTF-16 units can be, the columns' values
 * aside: the template's own text and its $chunk repeats. At declaration (svc_vectorize) with the
 * chunk_size of chunking by characters (code points, at most 2 units each).
 */
export function renderedLengthWithoutFields(template: string, chunkChars: number): number {
  let length = 0;
  for (const part of parseTemplate(template).parts) {
    if (part.kind === 'text') length += part.text.length;
    else if (part.kind === 'chunk') length += chunkChars;
  }
  return length;
}

/** Why the text to embed for this chunk is not made (over MAX_RENDERED_CHARS), or undefined: measured before any of it is built. */
export function renderProblem(
  template: string,
  fields: Readonly<Record<string, string | null | undefined>>,
  chunk: string,
): string | undefined {
  let length = 0;
  for (const part of parseTemplate(template).parts) {
    length +=
      part.kind === 'text'
        ? part.text.length
        : part.kind === 'chunk'
          ? chunk.length
          : fieldText(fields, part.name).length;
  }
  return length > MAX_RENDERED_CHARS
    ? `the format makes a text of ${length} characters to embed for a chunk, more than the ${MAX_RENDERED_CHARS} a vectorizer embeds (a shorter format, columns or chunk_size)`
    : undefined;
}

/**
 * The text to embed for one chunk: the template with $chunk replaced by the chunk and each $name by fields[name] (null or missing → empty string). The default template is '$chunk'.
 *
 * One pass over the template, so a `$` inside the chunk or a field's value is never expanded. A
 * malformed `$` (see templateProblem, which should have vetted the template) is copied as it stands.
 */
export function renderTemplate(
  template: string,
  fields: Readonly<Record<string, string | null | undefined>>,
  chunk: string,
): string {
  let text = '';
  for (const part of parseTemplate(template).parts) {
    if (part.kind === 'text') text += part.text;
    else if (part.kind === 'chunk') text += chunk;
    else text += fieldText(fields, part.name);
  }
  return text;
}

function fieldText(fields: Readonly<Record<string, string | null | undefined>>, name: string): string {
  // Own properties only: a column named `constructor` must not find Object.prototype's.
  if (!Object.prototype.hasOwnProperty.call(fields, name)) return '';
  const value: unknown = fields[name];
  if (value === null || value === undefined) return '';
  // A caller that hands over a row as it came from the database may pass numbers and the like.
  return typeof value === 'string' ? value : String(value);
}

function parseTemplate(template: string): ParsedTemplate {
  const parts: Part[] = [];
  let problem: string | undefined;
  let literal = '';
  const reference = (name: string) => {
    if (literal !== '') parts.push({ kind: 'text', text: literal });
    literal = '';
    parts.push(name === CHUNK ? { kind: 'chunk' } : { kind: 'column', name });
  };
  let at = 0;
  while (at < template.length) {
    const dollar = template.indexOf('$', at);
    if (dollar === -1) {
      literal += template.slice(at);
      break;
    }
    literal += template.slice(at, dollar);
    const next = template[dollar + 1];
    if (next === '$') {
      literal += '$';
      at = dollar + 2;
    } else if (next === '{') {
      const close = template.indexOf('}', dollar + 2);
      if (close === -1) {
        problem ??= `\`\${\` at offset ${dollar} has no closing \`}\``;
        literal += template.slice(dollar);
        break;
      }
      if (close === dollar + 2) {
        problem ??= `\`\${}\` at offset ${dollar} names no column`;
        literal += '${}';
      } else {
        reference(template.slice(dollar + 2, close));
      }
      at = close + 1;
    } else {
      const end = nameEnd(template, dollar + 1);
      if (end === dollar + 1) {
        problem ??= `\`$\` at offset ${dollar} must be followed by a name, \`{\` or \`$\` (\`$$\` is a literal \`$\`)`;
        literal += '$';
      } else {
        reference(template.slice(dollar + 1, end));
      }
      at = Math.max(end, dollar + 1);
    }
  }
  if (literal !== '') parts.push({ kind: 'text', text: literal });
  return { parts, problem };
}

/** Where a bare name ([A-Za-z_][A-Za-z0-9_]*) starting at `from` ends; `from` when none starts there. */
function nameEnd(template: string, from: number): number {
  if (from >= template.length || !/[A-Za-z_]/.test(template[from])) return from;
  let end = from + 1;
  while (end < template.length && /[A-Za-z0-9_]/.test(template[end])) end++;
  return end;
}
