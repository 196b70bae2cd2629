// The `svc` command: a small dispatcher, one module per subcommand. Each subcommand resolves to an
// exit code; usage errors exit 2, bad input (e.g. an invalid constraint) exits 1.

import { grammarCommand } from './grammar.js';
import { generateCommand } from './generate.js';
import { embedCommand } from './embed.js';
import { rerankCommand } from './rerank.js';
import { makeTestModelCommand } from './make-test-model.js';
import { modelsCommand } from './models.js';
import type { Command } from './command.js';
import { versionLine } from '../version.js';

const COMMANDS: Record<string, Command> = {
  grammar: grammarCommand,
  generate: generateCommand,
  embed: embedCommand,
  rerank: rerankCommand,
  'make-test-model': makeTestModelCommand,
  models: modelsCommand,
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return [
    'Usage: svc <command> [options]',
    '       svc --version',
    '',
    'Commands:',
    ...lines,
    '',
    "Run 'svc <command> --help' for a command's options.",
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  // `svc --verbose generate ...` is `svc generate --verbose ...`.
  const verbose = argv[0] === '--verbose' || argv[0] === '-v';
  const [name, ...rest] = verbose ? [...argv.slice(1, 2), '--verbose', ...argv.slice(2)] : argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage() + '\n');
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    process.stdout.write(`${versionLine('svc')}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`svc: unknown command '${name}'\n\n${usage()}\n`);
    return 2;
  }
  return command.run(rest);
}

process.exitCode = await main(process.argv.slice(2));
