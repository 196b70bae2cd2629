// `svc embed`: the implementation lives in src/cli/commands/embed.ts and is imported on first use, so
// other subcommands (and --help) do not pay for loading the inference engine.
import type { Command } from './command.js';

export const embedCommand: Command = {
  summary: 'print the embedding of a text as a JSON array',
  run: async (args) => (await import('./commands/embed.js')).run(args),
};
