// The generation functions: generate (at most one constraint), its stream, and one function per kind
// of constraint (generateJson, generateRegex, generateChoice, generateFormat), each checking its
// options and running the generation through run.ts.
import type { z } from 'zod';
import { ConstraintError } from '../grammar/index.js';
import type { StopReason } from '../engine/outcomes.js';
import {
  choicesConstraint,
  regexConstraint,
  schemaConstraint,
  type BasicTypeSpec,
  type Constraint,
  type InferSchema,
  type JsonSchema,
  type SchemaSpec,
} from './constraint.js';
import { ClientError, invalidOptions } from './errors.js';
import {
  CALL_KEYS,
  CONSTRAINT_KEYS,
  SCHEMA_KEYS,
  checkOptions,
  checkPrompt,
  schemaOptions,
  type CallOptions,
  type GenerateOptions,
  type SchemaOptions,
} from './options.js';
import { run } from './run.js';

/**
 * Generates text for `prompt`. With `schema`, the result is the JSON output wrapped in
 * `<json-output>` … `</json-output>` (SPEC 2.1); with `regex`, text matching it; with `choices`, one of
 * them; with none, the model's plain output. At most one constraint may be given.
 */
export async function generate(prompt: string, options: GenerateOptions = {}): Promise<string> {
  const { o, constraint } = generateRequest('generate', prompt, options);
  const { text } = await run('generate', prompt, constraint, o);
  return generateResult(constraint, text);
}

/** generate's and generateStream's options checked, and the constraint they give. */
function generateRequest(
  fn: string,
  prompt: string,
  options: GenerateOptions,
): { o: GenerateOptions; constraint?: Constraint } {
  const o = checkOptions(options, [...CONSTRAINT_KEYS, ...SCHEMA_KEYS, ...CALL_KEYS], fn) as GenerateOptions;
  const how = schemaOptions(o, fn);
  for (const key of SCHEMA_KEYS)
    if (o[key] !== undefined && o.schema === undefined) throw invalidOptions(`${fn}: ${key} applies to schema only`);
  checkPrompt(prompt, fn);
  const given = CONSTRAINT_KEYS.filter((k) => o[k] !== undefined);
  if (given.length > 1)
    throw invalidOptions(`${fn}: give exactly one of schema, regex or choices; got ${given.join(' and ')}`);
  let constraint: Constraint | undefined;
  if (o.schema !== undefined) constraint = schemaConstraint(o.schema, how.strict, how.openObjects);
  else if (o.regex !== undefined) constraint = regexConstraint(o.regex);
  else if (o.choices !== undefined) constraint = choicesConstraint(o.choices);
  return { o, constraint };
}

/** generate's answer: the output, in `<json-output>` tags for a schema (SPEC 2.1). */
const generateResult = (constraint: Constraint | undefined, text: string) =>
  constraint?.kind === 'json' ? `<json-output>${text}</json-output>` : text;

/** What generateStream yields: the output's text as it comes, then the end. */
export type StreamEvent =
  /** A piece of the output at whole characters; `tokens`: generated so far (0 from a remote provider, whose answer comes whole). */
  | { type: 'text'; text: string; tokens: number }
  /** The end: `result` is exactly what generate returns for the same prompt and options (a schema's JSON in `<json-output>` tags). */
  | { type: 'done'; result: string; tokens?: number; stopReason: StopReason };

/**
 * generate, streamed: yields the output's text as the model writes it (`{type: 'text'}` pieces, at
 * whole UTF-8 characters, which joined are the raw output), then `{type: 'done', result}` with
 * exactly generate's result. Options and errors are generate's, checked before anything runs (a bad
 * option throws from this call, not from the loop); the output is checked against its constraint at
 * the end, so an output that breaks it throws after its pieces. Leaving the loop early (`break`)
 * stops the generation.
 *
 *   for await (const event of generateStream('Once upon a time')) if (event.type === 'text') process.stdout.write(event.text);
 */
export function generateStream(prompt: string, options: GenerateOptions = {}): AsyncIterableIterator<StreamEvent> {
  const { o, constraint } = generateRequest('generateStream', prompt, options);
  const stop = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
  const queue: StreamEvent[] = [];
  let failure: { error: unknown } | undefined;
  let finished = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  run('generateStream', prompt, constraint, { ...o, signal }, (text, tokens) => {
    queue.push({ type: 'text', text, tokens });
    notify();
  })
    .then(
      (out) =>
        queue.push({
          type: 'done',
          result: generateResult(constraint, out.text),
          tokens: out.tokens,
          stopReason: out.stopReason,
        }),
      (error: unknown) => (failure = { error }),
    )
    .finally(() => {
      finished = true;
      notify();
    });
  const iterator: AsyncIterableIterator<StreamEvent> = {
    async next(): Promise<IteratorResult<StreamEvent>> {
      for (;;) {
        const event = queue.shift();
        if (event) return { value: event, done: false };
        if (finished) {
          if (failure && !stop.signal.aborted) {
            const { error } = failure;
            failure = undefined;
            stop.abort();
            throw error;
          }
          return { value: undefined, done: true };
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async return(): Promise<IteratorResult<StreamEvent>> {
      // The reader left the loop: the generation stops, and its abort is not an error to anyone.
      stop.abort(new Error('the stream was closed'));
      queue.length = 0;
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/**
 * Generates JSON conforming to `schema` and returns the parsed, validated value: Zod's output type
 * for a Zod schema, `number`/`boolean`/`string` for a basic type, `unknown` (or your `T`) for a JSON
 * Schema object.
 */
export function generateJson<S extends z.ZodType>(
  prompt: string,
  schema: S,
  options?: CallOptions & SchemaOptions,
): Promise<z.output<S>>;
export function generateJson<S extends BasicTypeSpec>(
  prompt: string,
  schema: S,
  options?: CallOptions & SchemaOptions,
): Promise<InferSchema<S>>;
export function generateJson<T = unknown>(
  prompt: string,
  schema: JsonSchema,
  options?: CallOptions & SchemaOptions,
): Promise<T>;
export async function generateJson(
  prompt: string,
  schema: SchemaSpec,
  options: CallOptions & SchemaOptions = {},
): Promise<unknown> {
  const o = checkOptions(options, [...SCHEMA_KEYS, ...CALL_KEYS], 'generateJson') as CallOptions & SchemaOptions;
  const how = schemaOptions(o, 'generateJson');
  checkPrompt(prompt, 'generateJson');
  if (schema === undefined) throw invalidOptions('generateJson: a schema is required');
  const { value } = await run('generateJson', prompt, schemaConstraint(schema, how.strict, how.openObjects), o);
  return value;
}

/** Generates text that the whole of `pattern` matches, and returns it. */
export async function generateRegex(
  prompt: string,
  pattern: string | RegExp,
  options: CallOptions = {},
): Promise<string> {
  const o = checkOptions(options, CALL_KEYS, 'generateRegex') as CallOptions;
  checkPrompt(prompt, 'generateRegex');
  return (await run('generateRegex', prompt, regexConstraint(pattern), o)).text;
}

/** Generates exactly one of `choices`, and returns it. */
export async function generateChoice<const C extends readonly string[]>(
  prompt: string,
  choices: C,
  options: CallOptions = {},
): Promise<C[number]> {
  const o = checkOptions(options, CALL_KEYS, 'generateChoice') as CallOptions;
  checkPrompt(prompt, 'generateChoice');
  return (await run('generateChoice', prompt, choicesConstraint(choices), o)).text as C[number];
}

/**
 * Generates a value of a basic type: `Number` (or 'number', 'float') and 'integer'/'int' give a
 * number, `Boolean` (or 'boolean', 'bool') a boolean, `String` (or 'string', 'str') a string (the
 * model writes it as a JSON string literal; the value is returned unquoted).
 */
export async function generateFormat<S extends BasicTypeSpec>(
  prompt: string,
  type: S,
  options: CallOptions = {},
): Promise<InferSchema<S>> {
  const o = checkOptions(options, CALL_KEYS, 'generateFormat') as CallOptions;
  checkPrompt(prompt, 'generateFormat');
  const constraint = (() => {
    if (typeof type === 'function' || typeof type === 'string') {
      try {
        const c = schemaConstraint(type);
        if (c.kind === 'json' && c.from === 'type') return c;
      } catch (error) {
        if (!(error instanceof ConstraintError) && !(error instanceof ClientError)) throw error;
      }
    }
    throw invalidOptions(
      `generateFormat: type must be Number, Boolean, String or a type name ('integer', 'number', 'boolean', 'string'); got ${typeof type === 'function' ? type.name || 'a function' : JSON.stringify(type)}`,
    );
  })();
  return (await run('generateFormat', prompt, constraint, o)).value as InferSchema<S>;
}
