// The default number of CPU threads llama.cpp runs a model with. llama.cpp's threads spin while they
// wait for each other, so more threads than free cores is far slower, not a little: on a busy
// 2-core machine, stories260K took 9.6 s for 256 tokens at 2 threads and 0.37 s at 1 (#45;
// bench/threads.ts prints the figures). So: one thread for a small model (its matrices are too
// small to share out), else the physical cores (not SMT siblings), at most 8.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Models smaller than this (bytes of GGUF) run on one thread by default. */
export const SMALL_MODEL_BYTES = 256 * 2 ** 20;
/** The most threads chosen by default: beyond it llama.cpp's CPU decoding gains little (memory-bound). */
export const MAX_DEFAULT_THREADS = 8;

/** Physical cores: distinct (physical id, core id) pairs of /proc/cpuinfo; elsewhere, the logical CPUs. */
export function physicalCores(cpuinfo: string | undefined = readCpuinfo()): number {
  const logical = Math.max(1, availableParallelism());
  if (cpuinfo === undefined) return logical;
  const cores = new Set<string>();
  for (const block of cpuinfo.split(/\n\s*\n/)) {
    const physical = /^physical id\s*:\s*(\d+)/m.exec(block)?.[1];
    const core = /^core id\s*:\s*(\d+)/m.exec(block)?.[1];
    if (core !== undefined) cores.add(`${physical ?? 0}:${core}`);
  }
  // Containers may show every host CPU in cpuinfo yet allow fewer.
  return cores.size === 0 ? logical : Math.max(1, Math.min(cores.size, logical));
}

function readCpuinfo(): string | undefined {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return undefined;
  }
}

/** The default threads for a model of `modelBytes`: 1 for a small one, else the physical cores, at most 8. */
export function defaultThreads(modelBytes: number, cores = physicalCores()): number {
  if (modelBytes < SMALL_MODEL_BYTES) return 1;
  return Math.max(1, Math.min(cores, MAX_DEFAULT_THREADS));
}

/**
 * How many contexts decode at once on `cores`: one per `threads` of them, at least one. More would
 * make llama.cpp's threads wait for each other (as above).
 */
export function contextsForCores(threads: number, cores: number): number {
  return Math.max(1, Math.floor(cores / threads));
}

/**
 * How many embedding contexts run at once: as contextsForCores, and one more where each runs on one
 * thread. A one-thread decode waits for no other thread, so a context beyond the cores costs no
 * spinning, and it keeps the cores busy while another context's caller is between texts (JavaScript,
 * a worker's database round trips): stories260K, 4 callers on 2 cores, 790 -> 950 texts/s in process
 * and 500 -> 560 through a worker (#47). Generation gained nothing from it (its per-token JavaScript
 * keeps the main thread busy), so its contexts stay at contextsForCores.
 */
export function embeddingContextsForCores(threads: number, cores: number): number {
  return contextsForCores(threads, cores) + (threads === 1 ? 1 : 0);
}

/** `sequences` shared out over `contexts` contexts as evenly as they go, the larger shares first. */
export function shareSequences(sequences: number, contexts: number): number[] {
  return Array.from(
    { length: contexts },
    (_, i) => Math.floor(sequences / contexts) + (i < sequences % contexts ? 1 : 0),
  );
}
