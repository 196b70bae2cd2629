// `svc models list` and `svc models pull NAME|URI`: the models svc knows by name (src/model/names.ts:
// the two it ships, the recommended ones of docs/models.md) and svc's model cache (src/model/fetch.ts).
// A name `pull` takes works wherever a model is named (--model, SVC_MODEL, configure, the edge).
import { parseArgs } from 'node:util';
import {
  cachedModelFile,
  isModelUri,
  modelCacheDir,
  ModelFetchError,
  resolveModelFile,
  type FetchProgress,
} from '../model/fetch.js';
import { RECOMMENDED_MODELS } from '../model/recommended.js';
import { MODEL_NAMES, SHIPPED_MODELS, shippedModelPath } from '../model/names.js';
import { existsSync } from 'node:fs';
import type { Command } from './command.js';
import { UsageError } from './command.js';

const HELP = `Usage: svc models list
       svc models pull NAME|URI

list   the models svc knows by name: the two it ships (stories260K, svc-embed: the defaults) and the
       recommended ones (docs/models.md), with their files or URIs and whether the cache holds them
pull   print the path of a model by NAME, fetching a recommended one (or any hub URI:
       hf:<user>/<repo>/<file>.gguf, hf:<user>/<repo>:<quant>, or http(s) URL) into the model cache.
       Resumes a broken-off transfer; checks the file's size and sha256 on every later load.
       The NAME then works as --model, SVC_MODEL, the library's model and the edge's GENERATE_MODEL/EMBED_MODEL.

The cache is $SVC_MODEL_CACHE, else $XDG_CACHE_HOME/svc/models, else ~/.cache/svc/models
(now: ${modelCacheDir()}). The hub is $HF_ENDPOINT (default https://huggingface.co).

Exit status: 0 done, 1 cannot fetch, 2 usage error.`;

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** A progress line on a terminal (rewritten in place), else one line per 10%. */
function progressPrinter(): FetchProgress {
  let lastTenth = -1;
  return ({ received, total, resumedFrom }) => {
    const resumed = resumedFrom > 0 ? ` (resumed at ${mb(resumedFrom)})` : '';
    const text =
      total > 0
        ? `${mb(received)} of ${mb(total)}, ${Math.floor((100 * received) / total)}%${resumed}`
        : `${mb(received)}${resumed}`;
    if (process.stderr.isTTY) {
      process.stderr.write(`\rfetching: ${text}\x1b[K`);
      if (total > 0 && received === total) process.stderr.write('\n');
      return;
    }
    const tenth = total > 0 ? Math.floor((10 * received) / total) : -1;
    if (tenth !== lastTenth) {
      lastTenth = tenth;
      process.stderr.write(`fetching: ${text}\n`);
    }
  };
}

async function run(args: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
    if (values.help) {
      process.stdout.write(HELP + '\n');
      return 0;
    }
    const [verb, ...rest] = positionals;
    if (verb === 'list') {
      if (rest.length > 0) throw new UsageError('list takes no arguments');
      for (const m of SHIPPED_MODELS) {
        const path = shippedModelPath(m);
        process.stdout.write(
          `${m.name.padEnd(22)} ${m.role.padEnd(8)} ${path}\n${' '.repeat(32)}${m.summary}\n${' '.repeat(32)}${existsSync(path) ? 'shipped' : 'missing from this copy of svc'}\n`,
        );
      }
      for (const m of RECOMMENDED_MODELS) {
        const cached = cachedModelFile(m.uri);
        process.stdout.write(
          `${m.name.padEnd(22)} ${m.role.padEnd(8)} ${m.uri}\n${' '.repeat(32)}${m.summary}\n${' '.repeat(32)}${cached ? `cached: ${cached}` : 'not cached'}\n`,
        );
      }
      return 0;
    }
    if (verb !== 'pull')
      throw new UsageError(verb === undefined ? 'give list or pull' : `unknown verb '${verb}': list or pull`);
    if (rest.length !== 1) throw new UsageError('pull takes one NAME or URI');
    const [target] = rest;
    if (!MODEL_NAMES.includes(target) && !isModelUri(target)) {
      throw new UsageError(
        `'${target}' is neither a model svc knows (${MODEL_NAMES.join(', ')}) nor a hub URI (hf:…) or http(s) URL`,
      );
    }
    try {
      // A name is its shipped file (nothing to fetch) or its hub URI (src/model/names.ts).
      process.stdout.write((await resolveModelFile(target, { onProgress: progressPrinter() })) + '\n');
      return 0;
    } catch (error) {
      if (!(error instanceof ModelFetchError)) throw error;
      process.stderr.write(`svc models: ${error.message}\n`);
      return 1;
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`svc models: ${(error as Error).message}\nRun 'svc models --help' for usage.\n`);
      return 2;
    }
    throw error;
  }
}

export const modelsCommand: Command = {
  summary: 'list the recommended models; pull one (or any hub URI or URL) into the model cache',
  run,
};
