// `svc embed`: the embedding of a text, as a JSON array (src/cli/embed.ts registers it).
import { embed, loadModel } from '../../client/index.js';
import { EXIT_HELP, MODEL_HELP, prepareModel, readStdin, runModelCommand } from '../model-command.js';
import { UsageError } from '../command.js';

const HELP = `Usage: svc embed ["TEXT"] [options]

Print the L2-normalized embedding of TEXT (read from stdin when not given) as a JSON array of the
model's dimension, e.g. [0.12,-0.03,...] (also a pgvector literal). Empty or whitespace-only text
is an error (exit 2).

Options:
  --json              print {"model", "dimension", "embedding"} instead
${MODEL_HELP}
  -h, --help          show this help

${EXIT_HELP}`;

export function run(args: string[]): Promise<number> {
  return runModelCommand('embed', HELP, args, { json: { type: 'boolean' } }, async ({ values, positionals }) => {
    if (positionals.length > 1)
      throw new UsageError(`give the text as one argument (quote it); got ${positionals.length} arguments`);
    const text = positionals[0] ?? readStdin('text');
    // Before loading the model; the same rule as embed() and svc_embed.
    if (text.trim() === '') throw new UsageError('text must not be empty');
    await prepareModel(values, 'embed');
    const embedding = await embed(text, { model: values.model });
    if (values.json) {
      const { modelId, dimension } = await loadModel(values.model, 'embed');
      process.stdout.write(JSON.stringify({ model: modelId, dimension, embedding }) + '\n');
    } else {
      process.stdout.write(JSON.stringify(embedding) + '\n');
    }
  });
}
