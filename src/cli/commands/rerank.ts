// `svc rerank`: documents ranked for a query, best first (src/cli/rerank.ts registers it).
import { DEFAULT_RERANK_TASK, rerank } from '../../client/index.js';
import { EXIT_HELP, MODEL_HELP, prepareModel, readStdin, runModelCommand } from '../model-command.js';
import { UsageError } from '../command.js';

const HELP = `Usage: svc rerank "QUERY" ["DOCUMENT" ...] [options]

Rank the documents for the query, best first. Without DOCUMENT arguments, the documents are read
from stdin, one per line (empty lines skipped). Prints one line per document: score, index (0-based,
in input order) and document, separated by tabs. An empty or whitespace-only query or document
argument is an error (exit 2).

Scores come from the model's ranking head where it has one (0..1), else from the cosine similarity
of embeddings (-1..1).

Options:
  --task T            instruction prefixed to the query (default: "${DEFAULT_RERANK_TASK}")
  --top-k N           print only the best N documents (the same scores, as svc_rerank's top_k)
  --json              print a JSON array of {"index", "document", "score"} instead
${MODEL_HELP}
  -h, --help          show this help

${EXIT_HELP}`;

export function run(args: string[]): Promise<number> {
  return runModelCommand(
    'rerank',
    HELP,
    args,
    { task: { type: 'string' }, 'top-k': { type: 'string' }, json: { type: 'boolean' } },
    async ({ values, positionals }) => {
      const [query, ...documents] = positionals;
      if (query === undefined) throw new UsageError('give the query as the first argument');
      // Before loading the model; the same rules as rerank() and svc_rerank.
      if (query.trim() === '') throw new UsageError('query must not be empty');
      const docs =
        documents.length > 0
          ? documents
          : readStdin('documents')
              .split(/\r?\n/)
              .filter((line) => line.trim() !== '');
      if (docs.length === 0)
        throw new UsageError('no documents to rank: pass them as arguments or one per line on stdin');
      const blank = docs.findIndex((d) => d.trim() === '');
      // Counted from 0, as the index column of the output.
      if (blank >= 0)
        throw new UsageError(`document ${blank} must not be empty (documents count from 0, as the printed index)`);
      const topK = values['top-k'] === undefined ? undefined : Number(values['top-k']);
      if (topK !== undefined && !(Number.isInteger(topK) && topK >= 1))
        throw new UsageError(`--top-k must be a positive integer; got ${JSON.stringify(values['top-k'])}`);
      await prepareModel(values, 'rerank');
      const ranked = await rerank(query, docs, { model: values.model, task: values.task, topK });
      if (values.json) process.stdout.write(JSON.stringify(ranked) + '\n');
      else for (const r of ranked) process.stdout.write(`${r.score.toFixed(6)}\t${r.index}\t${r.document}\n`);
    },
  );
}
