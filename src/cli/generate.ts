// `svc generate`: the implementation lives in src/cli/commands/generate.ts and is imported on first use, so
// other subcommands (and --help) do not pay for loading the inference engine.
import type { Command } from './command.js';

export const generateCommand: Command = {
  summary: 'generate text for a prompt, optionally under a schema, regex, choices or type',
  run: async (args) => (await import('./commands/generate.js')).run(args),
};
