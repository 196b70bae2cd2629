// The prompt registry's template language (svc_prompt_*, README "Prompt registry"): variables,
// conditionals and loops over a JSON object of variables, and nothing else. Templates are data a
// role stores and others may run for it, so they are interpreted, never compiled to code: a template
// can read only the variables it is given (own properties: no prototype, no globals), its output is
// bounded, and every error names the line and column of the tag at fault. Pure and self-contained:
// bundled into plv8 and usable from Node.
//
//   {{ name }}  {{ customer.address.city }}  {{ items.0 }}      the value (strings as they are, other JSON as JSON)
//   {% if vip %}…{% elif not known %}…{% else %}…{% endif %}    false, null, missing, "", 0, [] and {} are false
//   {% for item in items %}{{ loop.index }}. {{ item }}{% endfor %}   over an array; loop.index from 1, loop.first, loop.last
//   {# a comment #}    {% raw %}{{ kept as written }}{% endraw %}
//   {{ name | trim | upper }}  {{ tags | join(", ") }}  {{ title | default("untitled") | truncate(40) }}   filters (FILTERS)
//
// A line holding only one {% %} or {# #} tag (and spaces) leaves no line behind, so block tags can
// sit on lines of their own.

export type TemplateErrorCode = 'syntax' | 'missing-variable' | 'not-a-list' | 'too-large';

export class TemplateError extends Error {
  constructor(
    readonly code: TemplateErrorCode,
    message: string,
    /** The variable path at fault, for missing-variable and not-a-list. */
    readonly variable?: string,
  ) {
    super(message);
  }
}

interface Position {
  readonly line: number;
  readonly column: number;
}
const at = (p: Position) => `line ${p.line}, column ${p.column}`;

/** A dotted path: `customer.name`, `items.0`. */
interface Path {
  readonly segments: readonly string[];
  readonly text: string;
  readonly at: Position;
}

type Node =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'output'; readonly path: Path; readonly filters: readonly Filter[] }
  | {
      readonly kind: 'if';
      readonly branches: ReadonlyArray<{
        readonly test: Path;
        readonly negate: boolean;
        readonly body: readonly Node[];
      }>;
      readonly otherwise: readonly Node[];
    }
  | { readonly kind: 'for'; readonly name: string; readonly list: Path; readonly body: readonly Node[] };

/** A filter of an output tag: `{{ x | name }}` or `{{ x | name(arg) }}`. */
interface Filter {
  readonly name: FilterName;
  readonly arg?: string | number;
  readonly at: Position;
}

/**
 * The filters, each safe on any JSON value: none runs code, reads anything but its input, or makes
 * more than its input and argument (truncate and length make less). `default` replaces a missing or
 * null value, which the others pass on untouched; they get the value's text (other JSON as JSON),
 * join an array.
 */
export const FILTERS = {
  upper: { arg: 'none' },
  lower: { arg: 'none' },
  trim: { arg: 'none' },
  length: { arg: 'none' },
  default: { arg: 'required' },
  join: { arg: 'optional string' },
  truncate: { arg: 'required count' },
} as const;
type FilterName = keyof typeof FILTERS;

/** truncate's largest count: the rendered text's own bound. */
const MAX_TRUNCATE = 1_000_000;

export interface Template {
  readonly nodes: readonly Node[];
  /** The variables the template reads from its input (first segments, loop variables and `loop` excluded), in first-use order. */
  readonly variables: readonly string[];
}

/** Nested if/for blocks allowed: deeper templates are refused when stored, so rendering never recurses deeply. */
export const MAX_NESTING = 32;

// --- tokens ------------------------------------------------------------------------------------

type Token =
  | { readonly kind: 'text'; text: string }
  | { readonly kind: 'output' | 'block' | 'comment'; readonly body: string; readonly at: Position };

/** Line and column (from 1) of each index of `source`, by a binary search over its line starts. */
function positions(source: string): (index: number) => Position {
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return (index) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: index - starts[lo] + 1 };
  };
}

const CLOSE: Record<string, string> = { '{{': '}}', '{%': '%}', '{#': '#}' };
const KIND: Record<string, 'output' | 'block' | 'comment'> = { '{{': 'output', '{%': 'block', '{#': 'comment' };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const positionOf = positions(source);
  let i = 0;
  while (i < source.length) {
    const open = /\{[{%#]/g;
    open.lastIndex = i;
    const m = open.exec(source);
    if (!m) {
      tokens.push({ kind: 'text', text: source.slice(i) });
      break;
    }
    if (m.index > i) tokens.push({ kind: 'text', text: source.slice(i, m.index) });
    const close = CLOSE[m[0]];
    const end = source.indexOf(close, m.index + 2);
    const pos = positionOf(m.index);
    if (end === -1) throw new TemplateError('syntax', `${m[0]} at ${at(pos)} is not closed by ${close}`);
    const body = source.slice(m.index + 2, end).trim();
    if (KIND[m[0]] === 'block' && body === 'raw') {
      // Everything up to {% endraw %} is text, tags included.
      const raw = /\{%\s*endraw\s*%\}/g;
      raw.lastIndex = end + 2;
      const r = raw.exec(source);
      if (!r) throw new TemplateError('syntax', `{% raw %} at ${at(pos)} has no {% endraw %}`);
      tokens.push(
        { kind: 'block', body: 'raw', at: pos },
        { kind: 'text', text: source.slice(end + 2, r.index) },
        { kind: 'block', body: 'endraw', at: pos },
      );
      i = r.index + r[0].length;
      continue;
    }
    if (KIND[m[0]] === 'block' && body === 'endraw')
      throw new TemplateError('syntax', `{% endraw %} at ${at(pos)} closes no {% raw %}`);
    tokens.push({ kind: KIND[m[0]], body, at: pos });
    i = end + 2;
  }
  return standalone(tokens);
}

/** Removes the line of a block or comment tag that is alone on it (spaces aside), as Mustache does. */
function standalone(tokens: Token[]): Token[] {
  // Decided on the texts as written, then cut: a text between two standalone tags loses its first
  // line's end to the one and its last line's indent to the other.
  const cuts = tokens.map(() => ({ head: 0, tail: 0 }));
  tokens.forEach((token, i) => {
    if (token.kind !== 'block' && token.kind !== 'comment') return;
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    if ((before && before.kind !== 'text') || (after && after.kind !== 'text')) return;
    const lead = before ? /(^|\n)([ \t]*)$/.exec(before.text) : undefined;
    const trail = after ? /^[ \t]*(\r?\n|$)/.exec(after.text) : undefined;
    if (before && (!lead || (lead[1] === '' && i - 1 !== 0))) return; // text before it on its line
    if (after && (!trail || (trail[1] === '' && i + 1 !== tokens.length - 1))) return; // text after it on its line
    if (lead) cuts[i - 1].tail = lead[2].length;
    if (trail) cuts[i + 1].head = trail[0].length;
  });
  tokens.forEach((token, i) => {
    if (token.kind === 'text') token.text = token.text.slice(cuts[i].head, token.text.length - cuts[i].tail);
  });
  return tokens.filter((t) => t.kind !== 'comment' && !(t.kind === 'text' && t.text === ''));
}

// --- parse ---------------------------------------------------------------------------------------

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SEGMENT = /^(?:[A-Za-z_][A-Za-z0-9_]*|0|[1-9][0-9]{0,8})$/;

function parsePath(text: string, pos: Position, what: string): Path {
  const segments = text.split('.');
  if (text === '' || !IDENT.test(segments[0]) || !segments.every((s) => SEGMENT.test(s))) {
    throw new TemplateError(
      'syntax',
      `${what} at ${at(pos)} must be a variable name or a dotted path such as customer.name or items.0 (got '${text}')`,
    );
  }
  return { segments, text, at: pos };
}

/** A filter's argument: a string in double or single quotes (\\, \" and \' escaped) or an integer. */
function parseArgument(text: string): string | number | undefined {
  const quoted = /^"((?:[^"\\]|\\.)*)"$|^'((?:[^'\\]|\\.)*)'$/.exec(text);
  if (quoted) return (quoted[1] ?? quoted[2]).replace(/\\(.)/g, '$1');
  if (/^-?(?:0|[1-9][0-9]{0,8})$/.test(text)) return Number(text);
  return undefined;
}

/** `path | filter | filter(arg)`: the path and its filters, checked now (unknown filter, missing or bad argument). */
function parseOutput(body: string, pos: Position): { path: Path; filters: Filter[] } {
  // Split on | outside quotes.
  const pieces: string[] = [];
  let quote = '';
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '|') {
      pieces.push(body.slice(start, i).trim());
      start = i + 1;
    }
  }
  pieces.push(body.slice(start).trim());
  const [pathText, ...filterTexts] = pieces;
  const path = parsePath(pathText, pos, '{{ }}');
  const filters = filterTexts.map((text): Filter => {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(\s*(.*?)\s*\))?$/s.exec(text);
    const names = Object.keys(FILTERS).join(', ');
    if (!m)
      throw new TemplateError(
        'syntax',
        `filter '${text}' at ${at(pos)} must read name or name(argument) (filters: ${names})`,
      );
    const name = m[1];
    if (!Object.prototype.hasOwnProperty.call(FILTERS, name))
      throw new TemplateError('syntax', `unknown filter '${name}' at ${at(pos)} (filters: ${names})`);
    const rule = FILTERS[name as FilterName].arg;
    const given = m[2] !== undefined && m[2] !== '';
    if (rule === 'none') {
      if (m[2] !== undefined) throw new TemplateError('syntax', `filter '${name}' at ${at(pos)} takes no argument`);
      return { name: name as FilterName, at: pos };
    }
    if (!given) {
      if (rule === 'optional string') return { name: name as FilterName, at: pos };
      throw new TemplateError(
        'syntax',
        `filter '${name}' at ${at(pos)} needs an argument: ${name}(${rule === 'required count' ? '40' : '"text"'})`,
      );
    }
    const arg = parseArgument(m[2]);
    if (arg === undefined)
      throw new TemplateError(
        'syntax',
        `filter '${name}' at ${at(pos)}: its argument must be a quoted string or an integer (got '${m[2]}')`,
      );
    if (rule === 'optional string' && typeof arg !== 'string')
      throw new TemplateError(
        'syntax',
        `filter '${name}' at ${at(pos)}: its argument must be a quoted string (got ${arg})`,
      );
    if (rule === 'required count' && (typeof arg !== 'number' || arg < 0 || arg > MAX_TRUNCATE)) {
      throw new TemplateError(
        'syntax',
        `filter '${name}' at ${at(pos)}: its argument must be an integer from 0 to ${MAX_TRUNCATE} (got ${m[2]})`,
      );
    }
    return { name: name as FilterName, arg, at: pos };
  });
  return { path, filters };
}

function parseTest(expr: string, pos: Position, tag: string): { test: Path; negate: boolean } {
  const m = /^not\s+(.*)$/.exec(expr);
  return { test: parsePath(m ? m[1].trim() : expr, pos, `{% ${tag} %}`), negate: m !== null };
}

interface Frame {
  readonly tag: 'if' | 'for' | 'root';
  readonly at?: Position;
  nodes: Node[];
  // if: the branches so far and whether {% else %} was seen
  branches?: Array<{ test: Path; negate: boolean; body: Node[] }>;
  otherwise?: Node[];
  name?: string;
  list?: Path;
}

/** Parses a template, or throws a TemplateError ('syntax') naming the line and column at fault. */
export function parseTemplate(source: string): Template {
  const root: Frame = { tag: 'root', nodes: [] };
  const stack: Frame[] = [root];
  const top = () => stack[stack.length - 1];
  const variables: string[] = [];
  const use = (path: Path, locals: readonly string[]) => {
    const name = path.segments[0];
    if (!locals.includes(name) && !variables.includes(name)) variables.push(name);
  };
  const locals = () => stack.flatMap((f) => (f.tag === 'for' ? [f.name!, 'loop'] : []));
  const push = (frame: Frame) => {
    if (stack.length > MAX_NESTING)
      throw new TemplateError('syntax', `blocks nest deeper than ${MAX_NESTING} at ${at(frame.at!)}`);
    stack.push(frame);
  };
  for (const token of tokenize(source)) {
    if (token.kind === 'text') {
      top().nodes.push({ kind: 'text', text: token.text });
      continue;
    }
    if (token.kind === 'comment') continue;
    if (token.kind === 'output') {
      const { path, filters } = parseOutput(token.body, token.at);
      use(path, locals());
      top().nodes.push({ kind: 'output', path, filters });
      continue;
    }
    const [word, ...rest] = token.body.split(/\s+/);
    const expr = rest.join(' ');
    const frame = top();
    if (word === 'raw' || word === 'endraw') continue; // what lies between is a text token (tokenize)
    switch (word) {
      case 'if': {
        const { test, negate } = parseTest(expr, token.at, 'if');
        use(test, locals());
        const body: Node[] = [];
        push({ tag: 'if', at: token.at, nodes: body, branches: [{ test, negate, body }] });
        break;
      }
      case 'elif': {
        if (frame.tag !== 'if' || frame.otherwise)
          throw new TemplateError(
            'syntax',
            `{% elif %} at ${at(token.at)} is not inside an {% if %} before its {% else %}`,
          );
        const { test, negate } = parseTest(expr, token.at, 'elif');
        use(test, locals());
        frame.nodes = [];
        frame.branches!.push({ test, negate, body: frame.nodes });
        break;
      }
      case 'else': {
        if (frame.tag !== 'if' || frame.otherwise || expr !== '')
          throw new TemplateError(
            'syntax',
            `{% else %} at ${at(token.at)} is not inside an {% if %}, or comes twice, or has words after it`,
          );
        frame.nodes = frame.otherwise = [];
        break;
      }
      case 'endif': {
        if (frame.tag !== 'if' || expr !== '')
          throw new TemplateError('syntax', `{% endif %} at ${at(token.at)} closes no {% if %}`);
        stack.pop();
        top().nodes.push({ kind: 'if', branches: frame.branches!, otherwise: frame.otherwise ?? [] });
        break;
      }
      case 'for': {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(\S+)$/.exec(expr);
        if (!m)
          throw new TemplateError(
            'syntax',
            `{% for %} at ${at(token.at)} must read {% for item in list %} (got '{% ${token.body} %}')`,
          );
        if (m[1] === 'loop')
          throw new TemplateError(
            'syntax',
            `{% for %} at ${at(token.at)}: 'loop' is the loop's own variable (loop.index, loop.first, loop.last); name the item otherwise`,
          );
        const list = parsePath(m[2], token.at, '{% for %}');
        use(list, locals());
        push({ tag: 'for', at: token.at, nodes: [], name: m[1], list });
        break;
      }
      case 'endfor': {
        if (frame.tag !== 'for' || expr !== '')
          throw new TemplateError('syntax', `{% endfor %} at ${at(token.at)} closes no {% for %}`);
        stack.pop();
        top().nodes.push({ kind: 'for', name: frame.name!, list: frame.list!, body: frame.nodes });
        break;
      }
      default:
        throw new TemplateError(
          'syntax',
          `unknown tag {% ${word} %} at ${at(token.at)} (tags: if, elif, else, endif, for, endfor, raw, endraw)`,
        );
    }
  }
  if (stack.length > 1) {
    const open = top();
    throw new TemplateError('syntax', `{% ${open.tag} %} at ${at(open.at!)} is not closed by {% end${open.tag} %}`);
  }
  return { nodes: root.nodes, variables };
}

// --- render --------------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Scope = ReadonlyArray<readonly [string, unknown]>;

const own = (value: unknown, key: string): boolean =>
  typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, key);

/** The value at `path`, or undefined when any step is missing (only own properties and array indexes). */
function lookup(path: Path, variables: Json, scope: Scope): unknown {
  const [first, ...rest] = path.segments;
  let value: unknown;
  const local = [...scope].reverse().find(([name]) => name === first);
  if (local) value = local[1];
  else if (own(variables, first) && !Array.isArray(variables)) value = (variables as Record<string, unknown>)[first];
  else return undefined;
  for (const segment of rest) {
    if (Array.isArray(value) ? !/^[0-9]+$/.test(segment) || Number(segment) >= value.length : !own(value, segment))
      return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

const truthy = (v: unknown): boolean =>
  !(
    v === undefined ||
    v === null ||
    v === false ||
    v === '' ||
    v === 0 ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && v !== null && Object.keys(v).length === 0)
  );

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

const kindOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

/** The first `n` characters (code points) of `s`. */
function firstCharacters(s: string, n: number): string {
  let units = 0;
  for (let count = 0; count < n && units < s.length; count++) {
    const c = s.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && units + 1 < s.length ? 2 : 1;
  }
  return s.slice(0, units);
}

/** The length of `s` in characters (code points). */
const characters = (s: string): number => s.length - (s.match(/[\ud800-\udbff][\udc00-\udfff]/g)?.length ?? 0);

/**
 * The template rendered with `variables` (a JSON object). Throws a TemplateError naming the variable:
 * 'missing-variable' for {{ x }} or {% for … in x %} when x is missing or null (unless strict is
 * false: then {{ x }} renders nothing and the loop runs no turn), 'not-a-list' when a loop's x (or
 * join's input) is not an array, 'too-large' past maxChars characters of output or maxSteps nodes and
 * loop turns.
 */
export function renderTemplate(
  template: Template,
  variables: Json,
  {
    maxChars = 1_000_000,
    maxSteps = 10_000_000,
    strict = true,
  }: { maxChars?: number; maxSteps?: number; strict?: boolean } = {},
): string {
  const out: string[] = [];
  let length = 0;
  // Loops inside loops with little or no output could otherwise run for as long as the statement may.
  let steps = 0;
  const step = () => {
    if (++steps > maxSteps)
      throw new TemplateError('too-large', `rendering takes more than ${maxSteps} steps (loops inside loops)`);
  };
  const emit = (s: string) => {
    length += s.length;
    if (length > maxChars) throw new TemplateError('too-large', `the rendered prompt passes ${maxChars} characters`);
    out.push(s);
  };
  const run = (nodes: readonly Node[], scope: Scope): void => {
    for (const node of nodes) {
      step();
      switch (node.kind) {
        case 'text':
          emit(node.text);
          break;
        case 'output': {
          let v = lookup(node.path, variables, scope);
          for (const filter of node.filters) {
            if (filter.name === 'default') {
              if (v === undefined || v === null) v = filter.arg;
              continue;
            }
            // A missing or null value passes through the other filters, for a default after them.
            if (v !== undefined && v !== null) v = applyFilter(filter, v, node.path);
          }
          if (v === undefined || v === null) {
            if (strict) throw missing(node.path, v);
            break;
          }
          emit(text(v));
          break;
        }
        case 'if': {
          const branch = node.branches.find((b) => truthy(lookup(b.test, variables, scope)) !== b.negate);
          run(branch ? branch.body : node.otherwise, scope);
          break;
        }
        case 'for': {
          const list = lookup(node.list, variables, scope);
          if ((list === undefined || list === null) && !strict) break;
          if (list === undefined || list === null) throw missing(node.list, list);
          if (!Array.isArray(list)) {
            throw new TemplateError(
              'not-a-list',
              `'${node.list.text}' must be an array to loop over (is ${kindOf(list)}; {% for %} at ${at(node.list.at)})`,
              node.list.text,
            );
          }
          list.forEach((item, i) => {
            step();
            const loop = { index: i + 1, index0: i, first: i === 0, last: i === list.length - 1, length: list.length };
            run(node.body, [...scope, [node.name, item], ['loop', loop]]);
          });
          break;
        }
      }
    }
  };
  run(template.nodes, []);
  return out.join('');
}

function applyFilter(filter: Filter, v: unknown, path: Path): unknown {
  switch (filter.name) {
    case 'upper':
      return text(v).toUpperCase();
    case 'lower':
      return text(v).toLowerCase();
    case 'trim':
      return text(v).trim();
    case 'length':
      return Array.isArray(v)
        ? v.length
        : typeof v === 'object' && v !== null
          ? Object.keys(v).length
          : characters(text(v));
    case 'truncate':
      return firstCharacters(text(v), filter.arg as number);
    case 'join':
      if (!Array.isArray(v)) {
        throw new TemplateError(
          'not-a-list',
          `'${path.text}' must be an array to join (is ${kindOf(v)}; filter join at ${at(filter.at)})`,
          path.text,
        );
      }
      return v.map(text).join((filter.arg as string | undefined) ?? '');
    case 'default':
      return v;
  }
}

function missing(path: Path, value: unknown): TemplateError {
  return new TemplateError(
    'missing-variable',
    `'${path.text}' is ${value === null ? 'null' : 'missing'} (used at ${at(path.at)})`,
    path.text,
  );
}
