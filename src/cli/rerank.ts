// `svc rerank`: the implementation lives in src/cli/commands/rerank.ts and is imported on first use, so
// other subcommands (and --help) do not pay for loading the inference engine.
import type { Command } from './command.js';

export const rerankCommand: Command = {
  summary: 'rank documents for a query, best first',
  run: async (args) => (await import('./commands/rerank.js')).run(args),
};
