// `svc make-test-model PATH`: writes the tiny deterministic test GGUF (scripts/make-test-model.ts).
import { parseArgs } from 'node:util';
import { writeTestModel } from '../../scripts/make-test-model.js';
import type { Command } from './command.js';
import { UsageError } from './command.js';

const HELP = `Usage: svc make-test-model PATH [--f16] [--seed N]

Write the tiny deterministic test model (a ~500 KB llama-architecture GGUF with random weights and a
byte-level vocabulary) to PATH and print its absolute path. Its plain output is meaningless; under a
constraint it is valid and reproducible: use it for tests and demos (e.g. SVC_MODEL=PATH).

Options:
  --f16               store weights as f16 (smaller)
  --seed N            PRNG seed of the weights (default 42)
  -h, --help          show this help

Exit status: 0 written, 1 cannot write, 2 usage error.`;

async function run(args: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { f16: { type: 'boolean' }, seed: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
    if (values.help) {
      process.stdout.write(HELP + '\n');
      return 0;
    }
    if (positionals.length !== 1)
      throw new UsageError(positionals.length === 0 ? 'give the PATH to write' : 'give exactly one PATH');
    let seed: number | undefined;
    if (values.seed !== undefined) {
      seed = Number(values.seed);
      if (!/^\d+$/.test(values.seed) || !Number.isSafeInteger(seed))
        throw new UsageError(`--seed must be a non-negative integer; got '${values.seed}'`);
    }
    let out: string;
    try {
      out = writeTestModel(positionals[0], { dtype: values.f16 ? 'f16' : 'f32', seed });
    } catch (error) {
      process.stderr.write(`svc make-test-model: cannot write ${positionals[0]}: ${(error as Error).message}\n`);
      return 1;
    }
    process.stdout.write(out + '\n');
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(
        `svc make-test-model: ${(error as Error).message}\nRun 'svc make-test-model --help' for usage.\n`,
      );
      return 2;
    }
    throw error;
  }
}

export const makeTestModelCommand: Command = { summary: 'write the tiny deterministic test model (GGUF) to PATH', run };
