// `svc grammar`: compile a constraint to GBNF on stdout.

import { parseArgs } from 'node:util';
import { ConstraintError, compileChoices, compileJsonSchema, compileRegex, compileType } from '../grammar/index.js';
import type { Command } from './command.js';
import {
  CONSTRAINT_OPTIONS,
  givenConstraints,
  parseChoicesFlag,
  readSchema,
  UsageError,
  withSuggestion,
} from './command.js';

const HELP = `Usage: svc grammar (--schema FILE|- | --regex PATTERN | --choices a,b,c | --type NAME) [options]

Compile a constraint to a GBNF grammar (llama.cpp) and print it to stdout.

Constraints (exactly one):
  --schema FILE|-     JSON Schema (drafts 04, 06, 07, 2019-09, 2020-12) from a file, or stdin with -
  --regex PATTERN     a regex the whole output must match (flags with --flags: i, s)
  --choices a,b,c     the output is exactly one of the comma-separated choices (or a JSON array of strings)
  --type NAME         integer|int, number|float|Number, boolean|bool|Boolean, string|str|String

Options:
  --flags FLAGS       regex flags for --regex
  --additional-properties
                      allow properties a schema does not declare (default: only declared ones)
  --strict            refuse unknown keywords and formats (default: annotations, as JSON Schema says)
  --approximations    also print, to stderr, the keywords the validator checks instead of the grammar
  -h, --help          show this help

Exit status: 0 on success, 1 when the constraint cannot be compiled, 2 on usage errors.`;

const OPTIONS = {
  ...CONSTRAINT_OPTIONS,
  flags: { type: 'string' },
  'additional-properties': { type: 'boolean' },
  strict: { type: 'boolean' },
  approximations: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function run(args: string[]): Promise<number> {
  try {
    const { values } = parseArgs({
      args,
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      process.stdout.write(HELP + '\n');
      return 0;
    }
    const given = givenConstraints(values);
    if (given.length !== 1) {
      throw new UsageError(
        given.length === 0
          ? 'give one of --schema, --regex, --choices or --type'
          : `give only one of ${given.map((g) => '--' + g).join(', ')}`,
      );
    }
    if (values.flags !== undefined && values.regex === undefined)
      throw new UsageError('--flags only applies to --regex');
    if (values.strict && values.schema === undefined) throw new UsageError('--strict only applies to --schema');
    let gbnf: string;
    if (values.schema !== undefined) {
      const compiled = compileJsonSchema(readSchema(values.schema), {
        additionalProperties: values['additional-properties'] ?? false,
        strict: values.strict ?? false,
      });
      if (values.approximations) {
        for (const a of compiled.approximations)
          process.stderr.write(`approximation: #${a.pointer} ${a.keyword}: ${a.note}\n`);
      }
      gbnf = compiled.gbnf;
    } else if (values.regex !== undefined) {
      gbnf = compileRegex(values.regex, values.flags ?? '').gbnf;
    } else if (values.choices !== undefined) {
      gbnf = compileChoices(parseChoicesFlag(values.choices)).gbnf;
    } else {
      gbnf = compileType(values.type!).gbnf;
    }
    process.stdout.write(gbnf);
    return 0;
  } catch (caught) {
    const error = withSuggestion(caught, [...Object.keys(OPTIONS)]);
    if (error instanceof ConstraintError) {
      process.stderr.write(`svc grammar: ${error.message} [${error.code}]\n`);
      return 1;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`svc grammar: ${(error as Error).message}\nRun 'svc grammar --help' for usage.\n`);
      return 2;
    }
    throw error;
  }
}

export const grammarCommand: Command = { summary: 'compile a JSON Schema, regex, choice list or type to GBNF', run };
