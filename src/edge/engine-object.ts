// The engine Durable Object (SPEC 4.3): holds the loaded model and answers {method, params}.
//
// One instance per model (idFromName of its name: GENERATE_MODEL's, EMBED_MODEL's), each with its own
// llama.cpp instance (and, deployed, its own isolate and 128 MB). The model is loaded from R2 once,
// on first use; a failed load is not remembered, so the next request retries (e.g. after the
// model was uploaded). A request may name the model tag it expects (params.model, see
// engine/model-store.ts): when R2 holds newer bytes than the loaded ones, they are loaded first.
// Answers carry the tag of the model that computed them, which is what the worker caches under.
// Identical concurrent calls are coalesced (and the last 64 results kept), and wllama itself runs
// one wasm call at a time, so requests queue here rather than run in parallel.
import { Coalescer } from './cache.js';
import { GENERATE_DEFAULT_MAX_TOKENS, recycleAtBytes, wasmMaxPages } from './config.js';
import { currentModelTag, fetchModel, ggufProblem } from './engine/model-store.js';
import { InputLimitError, loadWllamaModel, type EdgeGenerateOptions, type LoadedModel } from './engine/wllama.js';
import { LIBRARY_NAMES, samplingProblem, type Sampling } from '../decode/sampling.js';
import { stopMessage, stopProblem } from '../decode/stop.js';
import { json } from './http.js';
import { notAGenerator, servable } from '../engine/capabilities.js';
import { inputProblem } from './text.js';
import type { DurableObjectState, Env } from './types.js';

interface Loaded {
  model: LoadedModel;
  key: string;
  tag: string;
  bytes: number;
  loadMs: number;
  /** The wasm memory's size when the model was loaded (a reused memory may start large). */
  memoryAtLoad: number;
}

// llama.cpp's heap in the wasm memory grows in steps over many requests and never gives memory back
// (bench/edge.ts: 40 MiB after load, 48 after ~200 requests, 57.6 after ~800, 63.4 after ~1,500 of
// plain and constrained generations), until an allocation past WASM_MAX_PAGES fails a request with
// std::bad_alloc. An instance whose heap has grown past recycleAtBytes is replaced after the call
// that grew it, before it fails one: every prompt is evaluated from scratch, so a fresh instance
// gives the same bytes.
export class EngineObject {
  private loading: Promise<Loaded> | null = null;
  /** The close of a replaced instance: the next load waits for it, so the isolate holds one wasm heap at a time. */
  private closing: Promise<void> = Promise.resolve();
  private callsSinceHeapCheck = 0;
  // Remembers its last results too (see Coalescer); keys carry the model tag.
  private coalescer = new Coalescer<unknown>(64);
  /** The model this object serves (params.name; the router sends it, idFromName(name) found the object). */
  private name: string | null = null;
  private stats = { loads: 0, generations: 0, embeddings: 0, coalesced: 0, recycled: 0 };

  constructor(
    private state: DurableObjectState,
    private env: Env,
  ) {}

  private load(): Promise<Loaded> {
    if (!this.loading) {
      this.loading = (async () => {
        await this.closing;
        const t0 = Date.now();
        const { key, tag, bytes } = await fetchModel(this.env, this.name!);
        let model: LoadedModel;
        try {
          const problem = ggufProblem(bytes);
          if (problem) throw new Error(problem);
          model = await loadWllamaModel(bytes, wasmMaxPages(this.env));
        } catch (err) {
          throw new Error(`Model file ${key} could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
        }
        this.stats.loads++;
        return { model, key, tag, bytes: bytes.byteLength, loadMs: Date.now() - t0, memoryAtLoad: model.memoryBytes() };
      })();
      const mine = this.loading;
      mine.catch(() => {
        if (this.loading === mine) this.loading = null;
      });
    }
    return this.loading;
  }

  private drop(): void {
    const loading = this.loading;
    this.loading = null;
    this.closing = loading ? loading.then((l) => l.model.close()).catch(() => {}) : this.closing;
  }

  /**
   * Replaces the instance once its heap has grown past recycleAtBytes (see above). Its memory is
   * below that size until then; once a reused memory is past it, the heap is measured every
   * eighth call (a scan of the memory: milliseconds).
   */
  private recycleIfGrown(loaded: Loaded): void {
    const limit = recycleAtBytes(this.env);
    const size = loaded.model.memoryBytes();
    if (size < limit) return;
    // Grown past the limit by this instance: replaced now. Reused at that size: measured.
    if (size <= loaded.memoryAtLoad) {
      if (++this.callsSinceHeapCheck < 8) return;
      this.callsSinceHeapCheck = 0;
      if (loaded.model.heapBytes() < limit) return;
    }
    void this.loading?.then((current) => {
      if (current !== loaded) return;
      this.stats.recycled++;
      this.drop();
    });
  }

  /** The loaded model, reloaded first when the caller expects another upload and R2 has it. */
  private async model(want: unknown): Promise<Loaded> {
    const loading = this.load();
    const loaded = await loading;
    if (typeof want !== 'string' || want === loaded.tag) return loaded;
    if ((await currentModelTag(this.env, this.name!)) === loaded.tag) return loaded;
    if (this.loading === loading) this.drop(); // closed after the calls already queued on it
    return this.load();
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    // Internal observability for tests and the bench; the public worker never routes here.
    if (request.method === 'GET' && url.pathname === '/stats') {
      const loaded = this.loading ? await this.loading.catch(() => null) : null;
      return json({
        ...this.stats,
        model: loaded
          ? {
              name: this.name,
              key: loaded.key,
              tag: loaded.tag,
              bytes: loaded.bytes,
              loadMs: loaded.loadMs,
              serves: servable(loaded.model.capabilities),
            }
          : null,
        wasmBytes: loaded ? loaded.model.memoryBytes() : 0,
        heapBytes: loaded ? loaded.model.heapBytes() : 0,
      });
    }
    let body: { method?: unknown; params?: Record<string, unknown> };
    try {
      body = (await request.json()) as typeof body;
    } catch {
      return json({ error: 'Invalid JSON body' }, 400);
    }
    const params = (body && typeof body.params === 'object' && body.params) || {};
    // The model: the router names it; a bare internal call (tests) means GENERATE_MODEL's.
    const name = typeof params.name === 'string' && params.name !== '' ? params.name : this.env.GENERATE_MODEL;
    if (!name) return json({ error: 'params.name (the model) required' }, 400);
    this.name ??= name;
    if (name !== this.name)
      return json({ error: `this engine object serves the model ${this.name}, not ${name}` }, 400);
    try {
      switch (body?.method) {
        case 'generate': {
          const prompt = params.prompt;
          if (typeof prompt !== 'string' || prompt === '') return json({ error: 'Prompt required' }, 400);
          const unicode = inputProblem('prompt', prompt);
          if (unicode) return json({ error: unicode }, 400);
          const maxTokens = params.max_tokens === undefined ? GENERATE_DEFAULT_MAX_TOKENS : Number(params.max_tokens);
          if (!Number.isInteger(maxTokens) || maxTokens < 1)
            return json({ error: 'max_tokens must be a positive integer' }, 400);
          const options = generateOptions(params);
          if (typeof options === 'string') return json({ error: options }, 400);
          if (params.stream !== undefined && typeof params.stream !== 'boolean')
            return json({ error: 'stream must be a boolean' }, 400);
          const loaded = await this.model(params.model);
          const { model, tag } = loaded;
          const refused = this.cannotGenerate(loaded);
          if (refused) return refused;
          if (params.stream === true) return this.streamGeneration(loaded, prompt, maxTokens, options);
          // Diagnostics (bench/divergence.ts; the public worker never sends it): each token with the likeliest at its step.
          if (params.logprobs !== undefined) {
            const logprobs = Number(params.logprobs);
            if (!Number.isInteger(logprobs) || logprobs < 1 || logprobs > 20)
              return json({ error: 'logprobs must be an integer from 1 to 20' }, 400);
            this.stats.generations++;
            const out = await model
              .generate(prompt, maxTokens, { ...options, logprobs })
              .finally(() => this.recycleIfGrown(loaded));
            return json({ ...out, model: tag });
          }
          const { promise, joined } = this.coalescer.run(
            `${tag}/gen:${prompt}:${maxTokens}:${JSON.stringify(options)}`,
            async () => {
              this.stats.generations++;
              return model.generate(prompt, maxTokens, options).finally(() => this.recycleIfGrown(loaded));
            },
          );
          if (joined) this.stats.coalesced++;
          const out = (await promise) as { text: string; tokens: number; stopped: boolean };
          return json({ text: out.text, tokens: out.tokens, stopped: out.stopped, model: tag });
        }
        case 'embed': {
          const text = params.text;
          if (typeof text !== 'string' || text === '') return json({ error: 'Text required' }, 400);
          const unicode = inputProblem('text', text);
          if (unicode) return json({ error: unicode }, 400);
          const loaded = await this.model(params.model);
          const { model, tag } = loaded;
          const { promise, joined } = this.coalescer.run(`${tag}/emb:${text}`, async () => {
            this.stats.embeddings++;
            return model.embed(text).finally(() => this.recycleIfGrown(loaded));
          });
          if (joined) this.stats.coalesced++;
          return json({ embedding: await promise, model: tag });
        }
        default:
          return json({ error: 'Unknown method' }, 400);
      }
    } catch (err) {
      const { error, status } = this.failure(err);
      return json({ error }, status);
    }
  }

  /**
   * The 400 for a generation on a model that does not generate (an embedding model: every model
   * embeds, by the library's rules), naming the model and what it cannot do, before llama.cpp is
   * asked (it answered a 500: "the current context does not support logits computation"); null
   * when it generates.
   */
  private cannotGenerate(loaded: Loaded): Response | null {
    const capabilities = loaded.model.capabilities;
    if (capabilities.generate) return null;
    return json(
      {
        error: `the model ${this.name} cannot generate: ${notAGenerator(capabilities)} (GENERATE_MODEL names the model of /generate)`,
      },
      400,
    );
  }

  /** An error as answered: an input limit is the caller's 400, anything else 500. */
  private failure(err: unknown): { error: string; status: number } {
    if (err instanceof InputLimitError) return { error: err.message, status: 400 };
    const message = err instanceof Error ? err.message : String(err);
    // An aborted wasm instance (out of its memory, a failed assertion) answers nothing again:
    // drop it, so the next request loads the model afresh.
    // A failed allocation (std::bad_alloc: the heap at WASM_MAX_PAGES) is answered, and the instance replaced too.
    if (/^\(ABORT\)|wllama has crashed|std::bad_alloc/.test(message)) this.drop();
    return { error: message, status: 500 };
  }

  /**
   * A generation streamed (params.stream): newline-delimited JSON, `{"text"}` per piece as it comes,
   * then `{"done": true, "text", "tokens", "model"}` with what the call without stream answers, or
   * `{"error", "status"}`. Not coalesced with other calls: each stream gets its own pieces.
   */
  private streamGeneration(loaded: Loaded, prompt: string, maxTokens: number, options: EdgeGenerateOptions): Response {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    const encoder = new TextEncoder();
    const line = (value: unknown) => writer.write(encoder.encode(JSON.stringify(value) + '\n')).catch(() => {}); // a reader gone stops nothing
    this.stats.generations++;
    void loaded.model
      .generate(prompt, maxTokens, options, (piece) => void line({ text: piece }))
      .finally(() => this.recycleIfGrown(loaded))
      .then(
        (out) =>
          line({
            done: true,
            text: out.text,
            tokens: out.tokens,
            cut: out.cut,
            stopped: out.stopped,
            model: loaded.tag,
          }),
        (err: unknown) => line(this.failure(err)),
      )
      .finally(() => writer.close().catch(() => {}));
    return new Response(readable, { headers: { 'Content-Type': 'application/x-ndjson' } });
  }
}

/**
 * A generation's options as the worker passes them (router.ts, already checked there): `grammar` (the
 * compiled constraint; none: any text), `seed`, `sampling` ({temperature, topK, topP, minP}) and
 * `stop`. A message for the 400 when one is malformed.
 */
function generateOptions(params: Record<string, unknown>): EdgeGenerateOptions | string {
  const { grammar, seed, sampling, stop } = params;
  if (grammar !== undefined && (typeof grammar !== 'string' || grammar === '')) return 'grammar must be GBNF text';
  if (seed !== undefined && (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > 0xffffffff))
    return 'seed must be an integer from 0 to 4294967295';
  if (sampling !== undefined) {
    if (typeof sampling !== 'object' || sampling === null) return 'sampling must be an object';
    for (const key of Object.keys(LIBRARY_NAMES) as Array<keyof Sampling>) {
      const problem = samplingProblem(key, (sampling as Record<string, unknown>)[key]);
      if (problem) return `sampling.${key} ${problem}`;
    }
  }
  if (stop !== undefined) {
    if (!Array.isArray(stop)) return 'stop must be an array of strings';
    const problem = stopProblem(stop, 'stop', 0);
    if (problem) return stopMessage(problem);
  }
  return {
    ...(grammar !== undefined ? { grammar: grammar as string } : {}),
    ...(seed !== undefined ? { seed: seed as number } : {}),
    ...(sampling !== undefined ? { sampling: sampling as Sampling } : {}),
    ...(stop !== undefined && (stop as string[]).length > 0 ? { stop: stop as string[] } : {}),
  };
}
