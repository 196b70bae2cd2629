// `svc generate`: constrained (or plain) generation from the command line, through the client library (src/cli/generate.ts registers it).
import {
  generate,
  generateFormat,
  generateStream,
  type BasicTypeSpec,
  type GenerateOptions,
} from '../../client/index.js';
import { choicesConstraint, compile, regexConstraint, schemaConstraint } from '../../client/constraint.js';
import { EXIT_HELP, MODEL_HELP, positiveInteger, prepareModel, readStdin, runModelCommand } from '../model-command.js';
import { CONSTRAINT_OPTIONS, givenConstraints, parseChoicesFlag, readSchema, UsageError } from '../command.js';

const HELP = `Usage: svc generate ["PROMPT"] [--schema FILE|- | --regex R | --choices a,b,c | --type T] [options]

Generate text for PROMPT (read from stdin when not given). Output is deterministic: the same call
gives the same result (greedy by default; with --temperature, drawn under --seed).

Constraints (at most one):
  --schema FILE|-     JSON Schema from a file (or stdin with -); prints <json-output>JSON</json-output>
  --regex R           the whole output matches the regular expression R
  --choices a,b,c     the output is one of the comma-separated choices (or a JSON array of strings)
  --type T            a value of a basic type: integer, number, boolean, string
  --open-objects      with --schema: objects without additionalProperties take further members
                      (as JSON Schema reads them) instead of only their declared properties

Options:
  --system TEXT       a system prompt: the system turn of the model's chat template
  --raw               send the prompt as it is, not as the user turn of the model's chat template
                      (the default where the model has one; a model without a template runs raw)
  --max-tokens N      most tokens to generate (default 512)
  --seed N            seed of the draws with --temperature (default 42)
  --temperature T     0 (default: greedy) to 2: draw each token from the model's distribution
  --top-k K           with --temperature: the K most likely tokens are candidates (default 40; 0: all)
  --top-p P           with --temperature: the most likely tokens up to probability P (default 0.95)
  --min-p P           with --temperature: tokens at least P times the most likely (default 0.05)
  --stop S            end the output before the first S it contains (repeat for more; under a
                      constraint only where the text before S is a complete output)
  --timeout S         give up after S seconds
  --unsafe            allow a remote model (<provider>:<name>): the prompt leaves this machine
  --json              print {"text", "value"} as JSON instead of the text
  --stream            print the output as the model writes it (the same bytes in the end; a
                      constraint is checked at the end, so a failing output is printed, then the error)
${MODEL_HELP}
  -h, --help          show this help

${EXIT_HELP}`;

export function run(args: string[]): Promise<number> {
  const flags = {
    ...CONSTRAINT_OPTIONS,
    'max-tokens': { type: 'string' },
    seed: { type: 'string' },
    temperature: { type: 'string' },
    'top-k': { type: 'string' },
    'top-p': { type: 'string' },
    'min-p': { type: 'string' },
    stop: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    unsafe: { type: 'boolean' },
    json: { type: 'boolean' },
    stream: { type: 'boolean' },
    raw: { type: 'boolean' },
    system: { type: 'string' },
    'open-objects': { type: 'boolean' },
  } as const;
  return runModelCommand('generate', HELP, args, flags, async ({ values, positionals }) => {
    const given = givenConstraints(values);
    if (given.length > 1)
      throw new UsageError(
        `give at most one of --schema, --regex, --choices, --type; got ${given.map((g) => '--' + g).join(' and ')}`,
      );
    if (positionals.length > 1)
      throw new UsageError(`give the prompt as one argument (quote it); got ${positionals.length} arguments`);
    let prompt = positionals[0];
    if (prompt === undefined) {
      if (values.schema === '-')
        throw new UsageError('--schema - reads the schema from stdin, so give the prompt as an argument');
      prompt = readStdin('prompt');
    }
    if (values.stream && (values.json || values.type !== undefined)) {
      throw new UsageError(
        `--stream prints the text as it comes: give --stream or ${values.json ? '--json' : '--type'}, not both`,
      );
    }
    if (values.raw && values.system !== undefined)
      throw new UsageError('--system needs the chat template: give --raw or --system, not both');
    const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeout !== undefined && !(timeout > 0))
      throw new UsageError(`--timeout must be a positive number of seconds; got '${values.timeout}'`);
    const options: GenerateOptions = {
      maxTokens: positiveInteger('max-tokens', values['max-tokens']),
      seed: positiveInteger('seed', values.seed, 0),
      temperature: numberFlag('temperature', values.temperature),
      topK: positiveInteger('top-k', values['top-k'], 0),
      topP: numberFlag('top-p', values['top-p']),
      minP: numberFlag('min-p', values['min-p']),
      stop: values.stop,
      model: values.model,
      unsafeMode: values.unsafe ? true : undefined,
      timeoutMs: timeout === undefined ? undefined : timeout * 1000,
      promptFormat: values.raw ? 'raw' : undefined,
      systemPrompt: values.system,
    };
    if (values['open-objects'] && values.schema === undefined)
      throw new UsageError('--open-objects only applies to --schema');
    if (values.schema !== undefined) options.schema = readSchema(values.schema) as GenerateOptions['schema'];
    if (values['open-objects']) options.openObjects = true;
    if (values.regex !== undefined) options.regex = values.regex;
    if (values.choices !== undefined) options.choices = parseChoicesFlag(values.choices);
    for (const key of Object.keys(options) as (keyof GenerateOptions)[])
      if (options[key] === undefined) delete options[key];

    // Compile the constraint first: an invalid one fails before any model loads.
    if (options.schema !== undefined) compile(schemaConstraint(options.schema, false, options.openObjects));
    else if (options.regex !== undefined) compile(regexConstraint(options.regex));
    else if (options.choices !== undefined) compile(choicesConstraint(options.choices));
    else if (values.type !== undefined) compile(schemaConstraint(values.type));
    await prepareModel(values);
    if (values.stream) {
      // The bytes of the call without --stream: the tags of a schema's output around the pieces, then a newline.
      const json = options.schema !== undefined;
      if (json) process.stdout.write('<json-output>');
      try {
        for await (const event of generateStream(prompt, options))
          if (event.type === 'text') process.stdout.write(event.text);
      } catch (error) {
        process.stdout.write('\n'); // the printed part ends its line; the error follows on stderr
        throw error;
      }
      process.stdout.write(json ? '</json-output>\n' : '\n');
      return;
    }
    let text: string;
    let value: unknown;
    if (values.type !== undefined) {
      const { schema: _s, regex: _r, choices: _c, openObjects: _o, ...call } = options;
      value = await generateFormat(prompt, values.type as BasicTypeSpec, call);
      text = typeof value === 'string' ? value : JSON.stringify(value);
    } else {
      text = await generate(prompt, options);
      value =
        options.schema !== undefined ? JSON.parse(text.slice('<json-output>'.length, -'</json-output>'.length)) : text;
    }
    process.stdout.write(values.json ? JSON.stringify({ text, value }) + '\n' : text + '\n');
  });
}

/** A number flag, as given (the library checks its range and names the option). */
function numberFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${flag} must be a number; got '${value}'`);
  return n;
}
