// The three engines the output-byte tests compare (test/engine/output-bytes.test.ts, stream.test.ts):
// the trained stories260K (SentencePiece with byte fallback), a qwen2-vocabulary model (byte-level
// BPE) and the one-byte test model (every multi-byte character split across tokens), written to a
// temporary directory that dispose() removes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { makeTestModel } from '../../src/model/test-model.js';
import { STORIES_MODEL, realVocabModel } from './real-models.js';

export interface ByteEngines {
  stories: Engine;
  qwen: Engine;
  bytes: Engine;
  dispose(): Promise<void>;
}

export async function loadByteEngines(prefix: string, storiesSequences: number): Promise<ByteEngines> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, 'test.gguf'), makeTestModel());
  const stories = await Engine.load({
    model: STORIES_MODEL,
    threads: 1,
    sequences: storiesSequences,
    contextSize: 256,
  });
  const qwen = await Engine.load({ model: await realVocabModel('qwen2'), threads: 1, sequences: 1, contextSize: 256 });
  const bytes = await Engine.load({ model: join(dir, 'test.gguf'), threads: 1, sequences: 1, contextSize: 256 });
  return {
    stories,
    qwen,
    bytes,
    dispose: async () => {
      await Promise.all([stories.dispose(), qwen.dispose(), bytes.dispose()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
