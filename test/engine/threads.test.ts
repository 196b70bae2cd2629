// The default thread count (#45): one thread for a small model, else the physical cores (SMT
// siblings counted once), at most 8; bench/threads.ts has the figures behind it.
import { availableParallelism } from 'node:os';
import {
  MAX_DEFAULT_THREADS,
  SMALL_MODEL_BYTES,
  contextsForCores,
  defaultThreads,
  embeddingContextsForCores,
  physicalCores,
  shareSequences,
} from '../../src/engine/threads.js';
import { modelCapabilities } from '../../src/engine/capabilities.js';

const cpu = (physical: number, core: number) => `processor\t: x\nphysical id\t: ${physical}\ncore id\t\t: ${core}\n`;

test('physical cores: distinct (physical id, core id) pairs, at most the CPUs this process may use', () => {
  const logical = availableParallelism();
  // 4 logical CPUs, 2 cores with 2 SMT siblings each.
  expect(physicalCores([cpu(0, 0), cpu(0, 1), cpu(0, 0), cpu(0, 1)].join('\n'))).toBe(Math.min(2, logical));
  // Two sockets: core ids repeat across them.
  expect(physicalCores([cpu(0, 0), cpu(1, 0)].join('\n'))).toBe(Math.min(2, logical));
  // No cpuinfo (not Linux), or one without core ids: the logical CPUs.
  expect(physicalCores(undefined)).toBe(logical);
  expect(physicalCores('processor\t: 0\n')).toBe(logical);
});

test('one thread for a model under 256 MiB, else the physical cores, at most 8', () => {
  expect(defaultThreads(1_185_344, 16)).toBe(1); // stories260K
  expect(defaultThreads(SMALL_MODEL_BYTES - 1, 16)).toBe(1);
  expect(defaultThreads(SMALL_MODEL_BYTES, 4)).toBe(4);
  expect(defaultThreads(4 * 2 ** 30, 64)).toBe(MAX_DEFAULT_THREADS);
  expect(defaultThreads(4 * 2 ** 30, 1)).toBe(1);
});

test('contexts at once (embedding, generation): one per thread-group of the cores, at least one; sequences shared out evenly', () => {
  expect(contextsForCores(1, 2)).toBe(2);
  expect(contextsForCores(8, 2)).toBe(1);
  expect(contextsForCores(2, 8)).toBe(4);
  expect(contextsForCores(3, 8)).toBe(2);
  // Embedding contexts: one beyond the cores where each decodes on one thread (no spinning).
  expect(embeddingContextsForCores(1, 2)).toBe(3);
  expect(embeddingContextsForCores(2, 8)).toBe(4);
  expect(embeddingContextsForCores(8, 2)).toBe(1);
  expect(shareSequences(4, 2)).toEqual([2, 2]);
  expect(shareSequences(5, 2)).toEqual([3, 2]);
  expect(shareSequences(3, 3)).toEqual([1, 1, 1]);
  expect(shareSequences(7, 1)).toEqual([7]);
});

test('what a model can do, from its metadata: encoders and pooled models do not generate', () => {
  const meta = (architecture: string, own: object = {}) => ({ general: { architecture }, [architecture]: own });
  expect(modelCapabilities(meta('llama'), true, false)).toMatchObject({
    generate: true,
    embed: true,
    rerank: true,
    pooling: 'none',
  });
  expect(modelCapabilities(meta('bert', { pooling_type: 2 }), true, false)).toMatchObject({
    generate: false,
    pooling: 'cls',
    architecture: 'bert',
  });
  expect(modelCapabilities(meta('bert'), true, false).generate).toBe(false); // an encoder, pooling or not
  expect(modelCapabilities(meta('qwen3', { pooling_type: 3 }), true, false)).toMatchObject({
    generate: false,
    pooling: 'last',
  }); // an embedding-only decoder
  expect(modelCapabilities(meta('gemma-embedding', { attention: { causal: false } }), true, false).generate).toBe(
    false,
  );
  expect(modelCapabilities(meta('bert', { pooling_type: 4 }), true, true)).toMatchObject({
    generate: false,
    rerank: true,
    rankingHead: true,
    pooling: 'rank',
  });
  expect(modelCapabilities(meta('t5'), false, false).generate).toBe(false);
});
