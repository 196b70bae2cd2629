// A constraint as the user gives it (JSON Schema, Zod schema, basic type, regex, choices) turned into
// one normalized form: the GBNF grammar for the local engine, the JSON Schema for remote providers,
// and the local check every output passes, local or remote.
import { z } from 'zod';
import {
  ConstraintError,
  compileChoices,
  compileJsonSchema,
  compileRegex,
  compileType,
  recognizeGbnf,
  resolveTypeName,
  type BasicType,
  type CompiledGrammar,
} from '../grammar/index.js';
import { invalidOptions } from './errors.js';

/** A JSON Schema (drafts 04, 06, 07, 2019-09 or 2020-12) as a plain object, or `true`/`false`. */
export type JsonSchema = { [keyword: string]: unknown } | boolean;

/** A basic type: the constructors `Number`, `Boolean`, `String`, or a type name. */
export type BasicTypeSpec =
  | NumberConstructor
  | BooleanConstructor
  | StringConstructor
  | 'integer'
  | 'int'
  | 'number'
  | 'float'
  | 'boolean'
  | 'bool'
  | 'string'
  | 'str';

/** What `schema` accepts: a JSON Schema object, a Zod schema, or a basic type. */
export type SchemaSpec = JsonSchema | z.ZodType | BasicTypeSpec;

/** The value `generateJson` returns for a schema: Zod's output type, the basic type, else `unknown`. */
export type InferSchema<S> = S extends z.ZodType
  ? z.output<S>
  : S extends NumberConstructor | 'integer' | 'int' | 'number' | 'float'
    ? number
    : S extends BooleanConstructor | 'boolean' | 'bool'
      ? boolean
      : S extends StringConstructor | 'string' | 'str'
        ? string
        : unknown;

export type CheckResult = { ok: true; value: unknown } | { ok: false; error: ConstraintError };

export type Constraint =
  | {
      kind: 'json';
      from: 'json-schema' | 'zod' | 'type';
      jsonSchema: JsonSchema;
      zod?: z.ZodType;
      type?: BasicType;
      strict?: boolean;
      openObjects?: boolean;
      key: string;
    }
  | { kind: 'regex'; pattern: string; flags: string; key: string }
  | { kind: 'choices'; choices: string[]; key: string };

const SCHEMA_HELP = "a JSON Schema object, a Zod schema, or a basic type (Number, Boolean, String, 'integer')";

export function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === 'object' &&
    value !== null &&
    '_zod' in value &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function'
  );
}

function basicTypeOf(spec: unknown): BasicType | undefined {
  if (spec === Number) return 'number';
  if (spec === Boolean) return 'boolean';
  if (spec === String) return 'string';
  if (typeof spec === 'string') return resolveTypeName(spec);
  return undefined;
}

const TYPE_SCHEMAS: Record<BasicType, JsonSchema> = {
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  string: { type: 'string' },
};

/**
 * `strict`: unknown keywords and formats are errors rather than annotations (JsonSchemaOptions.strict);
 * `openObjects`: objects of a JSON Schema without additionalProperties take further members
 * (JsonSchemaOptions.additionalProperties). A Zod schema's objects say for themselves.
 */
export function schemaConstraint(spec: unknown, strict = false, openObjects = false): Constraint {
  const type = basicTypeOf(spec);
  if (type) return { kind: 'json', from: 'type', type, jsonSchema: TYPE_SCHEMAS[type], key: `type:${type}` };
  if (isZodSchema(spec)) {
    let jsonSchema: JsonSchema;
    try {
      // The output side (closed objects, defaults required) is what the model should write; a schema
      // with transforms has none, so its input side is used: Zod parses that and applies the transforms.
      try {
        jsonSchema = z.toJSONSchema(spec) as JsonSchema;
      } catch {
        jsonSchema = z.toJSONSchema(spec, { io: 'input' }) as JsonSchema;
      }
    } catch (error) {
      throw new ConstraintError(
        'invalid-input',
        `this Zod schema has no JSON Schema form: ${(error as Error).message}`,
      );
    }
    return { kind: 'json', from: 'zod', zod: spec, jsonSchema, key: `schema:${JSON.stringify(jsonSchema)}` };
  }
  if (typeof spec === 'boolean' || (typeof spec === 'object' && spec !== null && !Array.isArray(spec))) {
    if (typeof spec === 'object' && typeof (spec as { parse?: unknown }).parse === 'function' && '_def' in spec) {
      throw invalidOptions(
        'schema looks like a Zod 3 schema; use a Zod 4 schema (import { z } from "zod"), whose JSON Schema export the library uses',
      );
    }
    const flags = `${strict ? 'strict:' : ''}${openObjects ? 'open:' : ''}`;
    return {
      kind: 'json',
      from: 'json-schema',
      jsonSchema: spec as JsonSchema,
      strict,
      openObjects,
      key: `schema:${flags}${JSON.stringify(spec)}`,
    };
  }
  const what =
    spec === null
      ? 'null'
      : Array.isArray(spec)
        ? 'an array'
        : typeof spec === 'function'
          ? `the function ${spec.name || '(anonymous)'}`
          : `a ${typeof spec}`;
  throw invalidOptions(`schema must be ${SCHEMA_HELP}; got ${what}`);
}

export function regexConstraint(regex: unknown): Constraint {
  if (regex instanceof RegExp) {
    // g, y, d do not change what a whole-output match means; u is implied; m and v have no grammar form.
    const flags = regex.flags.replace(/[gydu]/g, '');
    if (/[^is]/.test(flags)) throw invalidOptions(`regex flags '${flags}' are not supported; use i and s only`);
    return { kind: 'regex', pattern: regex.source, flags, key: `regex:${flags}:${regex.source}` };
  }
  if (typeof regex !== 'string')
    throw invalidOptions(`regex must be a string (or a RegExp); got ${regex === null ? 'null' : typeof regex}`);
  return { kind: 'regex', pattern: regex, flags: '', key: `regex::${regex}` };
}

export function choicesConstraint(choices: unknown): Constraint {
  if (!Array.isArray(choices))
    throw invalidOptions(`choices must be an array of strings; got ${choices === null ? 'null' : typeof choices}`);
  const bad = choices.findIndex((c) => typeof c !== 'string');
  if (bad >= 0)
    throw invalidOptions(
      `choices must be an array of strings; choice ${bad} is ${choices[bad] === null ? 'null' : typeof choices[bad]}`,
    );
  return { kind: 'choices', choices: [...choices], key: `choices:${JSON.stringify(choices)}` };
}

interface Compiled {
  grammar: CompiledGrammar;
  check(text: string): CheckResult;
}

const compiledCache = new Map<string, Compiled>();
const CACHE_SIZE = 128;

/** Compiles (once; then from the cache) the grammar and the local check of a constraint. Throws ConstraintError. */
export function compile(constraint: Constraint): Compiled {
  let compiled = compiledCache.get(constraint.key);
  if (compiled) {
    compiledCache.delete(constraint.key);
  } else {
    compiled = build(constraint);
    if (compiledCache.size >= CACHE_SIZE) compiledCache.delete(compiledCache.keys().next().value!);
  }
  compiledCache.set(constraint.key, compiled);
  return compiled;
}

function build(constraint: Constraint): Compiled {
  switch (constraint.kind) {
    case 'json': {
      if (constraint.type) {
        const typed = compileType(constraint.type);
        return { grammar: typed, check: (text) => attempt(() => typed.parse(text)) };
      }
      const schema = compileJsonSchema(constraint.jsonSchema, {
        strict: constraint.strict ?? false,
        additionalProperties: constraint.openObjects ?? false,
      });
      return { grammar: schema, check: (text) => schema.validate(text) };
    }
    case 'regex': {
      const grammar = compileRegex(constraint.pattern, constraint.flags);
      let re: RegExp | undefined;
      try {
        re = new RegExp(`^(?:${constraint.pattern})$`, constraint.flags + 'u');
      } catch {
        re = undefined; // the compiler read it; JavaScript cannot: check with the grammar itself
      }
      return {
        grammar,
        check: (text) =>
          (re ? re.test(text) : recognizeGbnf(grammar.grammar, text))
            ? { ok: true, value: text }
            : {
                ok: false,
                error: new ConstraintError(
                  'validation-failed',
                  `output ${preview(text)} does not match the pattern /${constraint.pattern}/${constraint.flags}`,
                ),
              },
      };
    }
    case 'choices': {
      const grammar = compileChoices(constraint.choices);
      const set = new Set(grammar.choices);
      return {
        grammar,
        check: (text) =>
          set.has(text)
            ? { ok: true, value: text }
            : {
                ok: false,
                error: new ConstraintError('validation-failed', `output ${preview(text)} is none of the choices`),
              },
      };
    }
  }
}

function attempt(parse: () => unknown): CheckResult {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    if (error instanceof ConstraintError)
      return { ok: false, error: new ConstraintError('validation-failed', error.message) };
    throw error;
  }
}

export function preview(text: string): string {
  return JSON.stringify(text.length > 80 ? text.slice(0, 80) + '…' : text);
}
