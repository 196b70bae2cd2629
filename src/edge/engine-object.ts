// The engine Durable Object (SPEC 4.3): holds the loaded model and answers {method, params}.
//
// One instance (idFromName of the model name) serves the worker. The model is loaded from R2 once,
// on first use; a failed load is not remembered, so the next request retries (e.g. after the
// model was uploaded). Identical concurrent calls are coalesced (and the last 64 results kept), and wllama itself runs one wasm
// call at a time, so requests queue here rather than run in parallel.
import { Coalescer } from './cache.js';
import { GENERATE_DEFAULT_MAX_TOKENS } from './config.js';
import { fetchModel } from './engine/model-store.js';
import { loadWllamaModel, type LoadedModel } from './engine/wllama.js';
import { json } from './http.js';
import type { DurableObjectState, Env } from './types.js';

interface Loaded {
  model: LoadedModel;
  key: string;
  bytes: number;
  loadMs: number;
}

export class EngineObject {
  private loading: Promise<Loaded> | null = null;
  // Remembers its last results too: see Coalescer.
  private coalescer = new Coalescer<unknown>(64);
  private stats = { loads: 0, generations: 0, embeddings: 0, coalesced: 0 };

  constructor(
    private state: DurableObjectState,
    private env: Env,
  ) {}

  private load(): Promise<Loaded> {
    if (!this.loading) {
      this.loading = (async () => {
        const t0 = Date.now();
        const { key, bytes } = await fetchModel(this.env);
        const model = await loadWllamaModel(bytes);
        this.stats.loads++;
        return { model, key, bytes: bytes.byteLength, loadMs: Date.now() - t0 };
      })();
      this.loading.catch(() => {
        this.loading = null;
      });
    }
    return this.loading;
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    // Internal observability for tests and the bench; the public worker never routes here.
    if (request.method === 'GET' && url.pathname === '/stats') {
      const loaded = this.loading ? await this.loading.catch(() => null) : null;
      return json({ ...this.stats, model: loaded ? { key: loaded.key, bytes: loaded.bytes, loadMs: loaded.loadMs } : null });
    }
    let body: { method?: unknown; params?: Record<string, unknown> };
    try {
      body = (await request.json()) as typeof body;
    } catch {
      return json({ error: 'Invalid JSON body' }, 400);
    }
    const params = (body && typeof body.params === 'object' && body.params) || {};
    try {
      switch (body?.method) {
        case 'generate': {
          const prompt = params.prompt;
          if (typeof prompt !== 'string' || prompt === '') return json({ error: 'Prompt required' }, 400);
          const maxTokens = params.max_tokens === undefined ? GENERATE_DEFAULT_MAX_TOKENS : Number(params.max_tokens);
          if (!Number.isInteger(maxTokens) || maxTokens < 1) return json({ error: 'max_tokens must be a positive integer' }, 400);
          const { promise, joined } = this.coalescer.run(`gen:${prompt}:${maxTokens}`, async () => {
            const { model } = await this.load();
            this.stats.generations++;
            return model.generate(prompt, maxTokens);
          });
          if (joined) this.stats.coalesced++;
          const out = (await promise) as { text: string; tokens: number };
          return json({ text: out.text, tokens: out.tokens });
        }
        case 'embed': {
          const text = params.text;
          if (typeof text !== 'string' || text === '') return json({ error: 'Text required' }, 400);
          const { promise, joined } = this.coalescer.run(`emb:${text}`, async () => {
            const { model } = await this.load();
            this.stats.embeddings++;
            return model.embed(text);
          });
          if (joined) this.stats.coalesced++;
          return json({ embedding: await promise });
        }
        default:
          return json({ error: 'Unknown method' }, 400);
      }
    } catch (err) {
      return json({ error: err instanceof Error ? err.message : String(err) }, 500);
    }
  }
}
