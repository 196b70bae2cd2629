// `svc embed`: the embedding of a text, as a JSON array (src/cli/embed.ts registers it).
import { parseArgs } from 'node:util';
import { embed, loadModel, unloadModels } from '../index.js';
import { EXIT, EXIT_HELP, MODEL_HELP, MODEL_OPTIONS, prepareModel, readStdin, report } from '../cli-support.js';
import { UsageError } from '../../cli/command.js';

const HELP = `Usage: svc embed ["TEXT"] [options]

Print the L2-normalized embedding of TEXT (read from stdin when not given) as a JSON array of the
model's dimension, e.g. [0.12,-0.03,...] (also a pgvector literal).

Options:
  --json              print {"model", "dimension", "embedding"} instead
${MODEL_HELP}
  -h, --help          show this help

${EXIT_HELP}`;

export async function run(args: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, ...MODEL_OPTIONS, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
    if (values.help) {
      process.stdout.write(HELP + '\n');
      return EXIT.ok;
    }
    if (positionals.length > 1) throw new UsageError(`give the text as one argument (quote it); got ${positionals.length} arguments`);
    const text = positionals[0] ?? readStdin('text');
    await prepareModel(values);
    const embedding = await embed(text, { model: values.model });
    if (values.json) {
      const { modelId, dimension } = await loadModel(values.model);
      process.stdout.write(JSON.stringify({ model: modelId, dimension, embedding }) + '\n');
    } else {
      process.stdout.write(JSON.stringify(embedding) + '\n');
    }
    return EXIT.ok;
  } catch (error) {
    return report('embed', error);
  } finally {
    await unloadModels();
  }
}

