// The synchronous functions (svc_generate, svc_embed, svc_generate_json/_regex/_choice, svc_rerank),
// each for one input and for many (an array first: results in input order, one row each). Cache first;
// the misses are enqueued through the autonomous session (autonomous.ts) so that workers see them
// before the caller's transaction ends, and the call waits for them. They run as svc's owner (svc_owner)
// (SECURITY DEFINER); the requests belong to the session's role.
//
// Nothing is left queued for nobody: settings are checked before anything is enqueued; a wait that
// times out or fails cancels what is still pending; and a caller that stops waiting for a reason its
// JavaScript cannot catch (a statement cancel or timeout, a lost connection) frees the waiter lock it
// holds, so the next claim cancels its requests that have not started (SYNC_WAITER_LOCK in src/queue/locks.ts).
import { one, rows } from './db.js';
import { QUERIES } from './queries.js';
import { sqlState, SvcError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import { LIMITS } from './limits.js';
import { intervalSetting } from './settings.js';
import { sessionQueueBound } from './quotas.js';
import { cacheIdentity } from '../queue/cache-key.js';
import * as jobs from './jobs.js';
import * as v from './validate.js';
import { EMBED_MANY_MAX_CHARS, EMBED_MANY_MAX_TEXTS, embedManyParameters, readEmbedManyResult } from '../queue/embed-many.js';
import { GENERATE_MANY_MAX_CHARS, generateManyParameters, isGenerateManyFunction, promptsPerRequest, readGenerateManyResult } from '../queue/generate-many.js';
import { awaitAll, readStates, stateError, type JobState } from './results.js';
import { cancelRemoteQuietly, holdWaiterLock, openSession, readRemote, submitRemote, syncContext } from './autonomous.js';

/** One input of a call: the request to make, or why it cannot be made. */
type Item = jobs.PreparedJob | SvcError;

interface Outcome {
  result: string | null;
  error: SvcError | null;
  /** The answer already decoded, for an item answered with others (Together.split); `result` is then null. */
  decoded?: unknown;
}

/** Items of one set call in the queue at once: the window moves on as they finish. */
const WINDOW = 1000;

/**
 * A set call wakes when the request this far into those it waits for lands (the lock its worker
 * holds), not the first: each wake reads the state of every request still waited for (up to WINDOW),
 * and a wake at each of the worker's completion statements (a few results each) made those reads
 * half of the caller's CPU a row (svc_embed of 1,000 texts: 0.24 -> 0.12 ms a row, #55). The answers
 * that land before it are read at that wake: when they are read changes, not what.
 */
const WAKE_AT = 16;

/** Who could serve a request for `model`: the live workers, how many of them serve it, and what that means (`withPending`: how many wait for it). */
export function workersSummary(model: string, withPending = false): { text: string; live: number; serving: number; slots: number } {
  const s = one<{ live: string; serving: string; slots: string; known: string }>(QUERIES.workersSummary, model)!;
  const live = Number(s.live);
  const serving = Number(s.serving);
  const forModel = model === 'default' ? '' : ` for model "${model}"`;
  let text: string;
  if (live === 0) text = Number(s.known) === 0 ? 'no worker has ever connected (start svc-worker)' : 'no worker is running (none sent a heartbeat in the last minute)';
  else if (serving === 0) text = `none of the ${live} running worker(s) serves model "${model}"`;
  else if (!withPending) text = `${serving} worker(s) running${forModel}`;
  else text = `${serving} worker(s) running${forModel}, ${one<{ pending: string }>(QUERIES.pendingForModel, model)!.pending} request(s) pending${forModel}`;
  return { text, live, serving, slots: Number(s.slots) };
}

/** SV006 when no live worker serves `model` (none running at all, or none of those running serves it): waiting would only time out. */
export function noLiveWorker(fn: string, model: string, workers = workersSummary(model)): SvcError | null {
  if (workers.serving > 0) return null;
  return new SvcError(SQLSTATE.svc_no_worker_for_model, `${fn}: ${workers.text}`, {
    hint: workers.live === 0
      ? 'Start a worker (svc-worker), or use the _async functions: their requests wait for one.'
      : `Start a worker with --model ${model}=PATH, choose another model (SET svc.model), or use the _async functions: their requests wait for a worker of the model.`,
  });
}

export const modelOf = (job: jobs.PreparedJob) => (typeof job.parameters.model === 'string' ? job.parameters.model : 'default');

/** Sets the cached answers of the items that allow the cache; returns the indices left to run. */
function fromCache(items: Item[], outcomes: Outcome[]): number[] {
  const valid = items.flatMap((item, i) => (item instanceof SvcError ? [] : [i]));
  const cacheable = valid.filter((i) => (items[i] as jobs.PreparedJob).parameters.use_cache === true);
  if (cacheable.length === 1) {
    // One input (the per-row call): the plain lookup, cheaper than unnesting arrays of one.
    const job = items[cacheable[0]] as jobs.PreparedJob;
    outcomes[cacheable[0]].result = one<{ result: string | null }>(QUERIES.cacheGet, cacheIdentity(job.functionName, job.parameters), modelOf(job))?.result ?? null;
  } else if (cacheable.length > 1) {
    const jobsOf = cacheable.map((i) => items[i] as jobs.PreparedJob);
    const hits = rows<{ ord: number | string; result: string }>(QUERIES.cacheGetMany, jobsOf.map((j) => cacheIdentity(j.functionName, j.parameters)), jobsOf.map(modelOf));
    for (const hit of hits) outcomes[cacheable[Number(hit.ord) - 1]].result = hit.result;
  }
  return valid.filter((i) => outcomes[i].result === null);
}

/**
 * How a call's items share requests (svc_embed's texts: src/queue/embed-many.ts): up to `max` items
 * and `maxWeight` a request, `request` the request for a run of them, `split` each one's answer from
 * its result.
 */
interface Together {
  max: number;
  /** How much of a request an item takes (its characters), and how much a request of several may hold. */
  weight(job: jobs.PreparedJob): number;
  maxWeight: number;
  request(jobs: jobs.PreparedJob[]): jobs.PreparedJob;
  split(result: string): Array<{ decoded: unknown } | { error: string }>;
  /**
   * A request's items run one after another in one worker slot: at least twice as many requests as
   * the live workers have slots (where there are items enough), so that every slot has work and the
   * requests end together.
   */
  spread?: boolean;
}

/** A request of a call and the items it answers. */
interface Unit {
  items: number[];
  job: jobs.PreparedJob;
}

function unitsOf(items: Item[], todo: number[], together?: Together, slots = 0): Unit[] {
  const job = (i: number) => items[i] as jobs.PreparedJob;
  if (!together) return todo.map((i) => ({ items: [i], job: job(i) }));
  // Runs of one size, give or take one (100 texts: two of 50, not 64 and 36; 100 prompts over 8: four
  // of 13 and four of 12), so that the requests running side by side end together; a run ends early
  // where the next item would take it past maxWeight, and the rest share the runs left.
  let left = Math.max(Math.ceil(todo.length / together.max), together.spread ? Math.min(todo.length, 2 * slots) : 0);
  let size = Math.ceil(todo.length / left);
  const runs: number[][] = [];
  let run: number[] = [];
  let weight = 0;
  for (const [k, i] of todo.entries()) {
    const w = together.weight(job(i));
    if (run.length === size || (run.length > 0 && weight + w > together.maxWeight)) {
      runs.push(run);
      run = [];
      weight = 0;
      left = Math.max(1, left - 1);
      size = Math.min(together.max, Math.ceil((todo.length - k) / left));
    }
    run.push(i);
    weight += w;
  }
  runs.push(run);
  return runs.map((items) => ({ items, job: together.request(items.map(job)) }));
}

/**
 * Runs the items: cached answers, then the rest through workers (`together`: several to a request),
 * at most WINDOW items in the queue at once, until each has an outcome. svc.sync_timeout bounds the
 * wait for the next answer, not the whole call: a set call goes on as long as answers keep coming.
 * An outcome's error is that item's alone.
 */
function runAll(fn: string, items: Item[], together?: Together): Outcome[] {
  const outcomes: Outcome[] = items.map((item) => ({ result: null, error: item instanceof SvcError ? item : null }));
  let todo = fromCache(items, outcomes);
  if (todo.length === 0) return outcomes;
  // The caller's settings, checked before anything is enqueued (an answer from the cache needs none).
  const timeout = intervalSetting('svc.sync_timeout');
  const maxQueueSize = sessionQueueBound(); // only lowers the queue's bound (quotas.ts)
  // No live worker serves the model (none running at all, or none of those running serves it):
  // waiting would only time out. A worker that is alive but busy is waited for, up to svc.sync_timeout.
  const summaries = new Map<string, ReturnType<typeof workersSummary>>();
  for (const model of new Set(todo.map((i) => modelOf(items[i] as jobs.PreparedJob)))) summaries.set(model, workersSummary(model));
  todo = todo.filter((i) => {
    const model = modelOf(items[i] as jobs.PreparedJob);
    const error = noLiveWorker(fn, model, summaries.get(model)!);
    if (error) outcomes[i].error = error;
    return error === null;
  });
  if (todo.length === 0) return outcomes;

  const slots = [...summaries.values()].reduce((n, s) => n + s.slots, 0);
  const units = unitsOf(items, todo, together, slots);
  const ctx = syncContext();
  const waiter = holdWaiterLock();
  const session = openSession(fn, ctx);
  const unitOf = new Map<string, number>();
  let next = 0;
  // Submits the next requests while fewer than half the window's items are in the queue. A full queue
  // or quota (53400) halves the window (down to one item; it grows back as submissions fit); with
  // requests of this call still in the queue the rest waits for them to free room. A request of several
  // items refused alone is split in two; a single item's that does not fit when none of the call's is
  // in the queue fails the call, as a one-input call fails.
  let window = WINDOW;
  const submitMore = (inQueue: number): string[] => {
    for (;;) {
      if (next >= units.length || inQueue > window / 2) return [];
      let end = next + 1;
      for (let room = window - inQueue - units[next].items.length; end < units.length && room >= units[end].items.length; end++) room -= units[end].items.length;
      const batch = units.slice(next, end);
      try {
        const ids = submitRemote(session, ctx, waiter, batch[0].job.functionName, batch.map((u) => u.job.parameters), maxQueueSize);
        ids.forEach((id, k) => unitOf.set(id, next + k));
        next = end;
        window = Math.min(WINDOW, window * 2);
        return ids;
      } catch (error) {
        const alone = batch.length === 1 && inQueue === 0;
        if (sqlState(error) !== SQLSTATE.configuration_limit_exceeded || (alone && batch[0].items.length === 1)) throw error;
        window = Math.max(1, Math.floor(batch.reduce((n, u) => n + u.items.length, 0) / 2));
        if (alone) units.splice(next, 1, ...unitsOf(items, batch[0].items.slice(0, window), together), ...unitsOf(items, batch[0].items.slice(window), together));
        if (inQueue > 0) return [];
      }
    }
  };
  const inQueue = (waiting: readonly string[]) => waiting.reduce((n, id) => n + units[unitOf.get(id)!].items.length, 0);
  // Under READ COMMITTED each statement of this call sees what committed before it, so the rows are
  // read here; under REPEATABLE READ and SERIALIZABLE this transaction's snapshot would never show the
  // answers, so the autonomous session reads them.
  const local = ctx.isolation === 'read committed';
  const read = local ? (ids: readonly string[]) => readUnderWaiter(waiter.key, ids) : (ids: readonly string[]) => readRemote(session, waiter, ids);
  let states;
  try {
    states = awaitAll(submitMore(0), timeout, 0.02, read, {
      onPoll: (waiting) => submitMore(inQueue(waiting)),
      deadlineMovesOnProgress: true,
      // Requests of many items land a few at a time: each wake has few to read.
      wakeAt: together ? 0 : WAKE_AT,
    });
  } catch (error) {
    cancelRemoteQuietly(session, waiter, [...unitOf.keys()]);
    throw error;
  }
  const stillWaiting: string[] = [];
  let summary: string | undefined;
  const timedOut = (id: string, status: string) => {
    summary ??= workersSummary(modelOf(units[unitOf.get(id)!].job), true).text;
    return new SvcError(SQLSTATE.svc_timed_out, `${fn}: timed out: no result within ${timeout} s (svc.sync_timeout); ${summary}`, {
      detail: `request ${id} was ${status}; it is cancelled (a worker running it stops)`,
      hint: 'Start a worker (svc-worker), raise svc.sync_timeout, or use the _async functions.',
    });
  };
  for (const [id, u] of unitOf) {
    const unit = units[u];
    const state = states.get(id);
    const error = stateError(fn, id, state, () => timedOut(id, state!.status));
    if (error?.sqlerrcode === SQLSTATE.svc_timed_out) stillWaiting.push(id);
    if (error) for (const i of unit.items) outcomes[i].error = error;
    else if (!together) outcomes[unit.items[0]].result = state!.result ?? '';
    else {
      const parts = together.split(state!.result ?? '[]');
      unit.items.forEach((i, k) => {
        const part = parts[k] ?? { error: 'its result has no answer for this input' };
        if ('decoded' in part) outcomes[i].decoded = part.decoded;
        // As a request of this item alone would have failed.
        else outcomes[i].error = stateError(fn, id, { status: 'failed', result: null, error: part.error }, () => timedOut(id, 'failed'));
      });
    }
  }
  for (const unit of units.slice(next)) {
    for (const i of unit.items) outcomes[i].error = new SvcError(SQLSTATE.svc_timed_out, `${fn}: timed out before this input was submitted: no result within ${timeout} s (svc.sync_timeout)`);
  }
  cancelRemoteQuietly(session, waiter, stillWaiting);
  return outcomes;
}

/**
 * The states of a sync call's requests `ids`, each row read whole only once it has finished. The
 * requests not finished keep the call's waiter key: one scan of svc_queue_waiter_idx gives them with
 * their status alone, and only the others (finished since the last read) are read by id, with their
 * results. Reading every id waited for at each wake-up cost the caller's backend O(window) rows per
 * answer: 274 rows a request, 0.4 ms of its 1 ms a row, in a set-based call of 1,000 (#55). A row
 * under the key with a finished status (none is expected) is read whole too, so it can never be
 * waited for as unfinished; rows under the key that are not this call's are left out.
 */
function readUnderWaiter(key: number, ids: readonly string[]): Map<string, JobState> {
  const states = new Map<string, JobState>();
  for (const s of rows<{ request_id: string; status: string; uncommitted: boolean | null }>(QUERIES.waiterStates, key)) {
    if (s.status === 'pending' || s.status === 'processing') states.set(s.request_id, { status: s.status, result: null, error: null, uncommitted: s.uncommitted === true });
  }
  const finished = ids.filter((id) => !states.has(id));
  if (finished.length > 0) for (const [id, state] of readStates(finished)) states.set(id, state);
  return states;
}

/** The outcomes of many items (one function, one model each: svc_deduplicate_facts' embeddings), each its result or its error. */
export const runMany = (fn: string, items: jobs.PreparedJob[]): Outcome[] => runAll(fn, items);

/** The one outcome of a single-input call: its result, or its error raised. */
export function runOne(fn: string, job: jobs.PreparedJob): string {
  const [outcome] = runAll(fn, [job]);
  if (outcome.error) throw outcome.error;
  return outcome.result!;
}

/**
 * The items of a set call: `values` (the array parameter `name`) checked one by one, each an item of
 * its own or its error; the other arguments are checked once, before any item (their errors are the
 * call's), by preparing a request for a probe value, whose `field` each item then replaces.
 */
function prepareMany(fn: string, name: string, field: string, values: unknown, prepare: (fn: string, value: string) => jobs.PreparedJob): Item[] {
  const list = v.array(fn, name, values, { maxItems: LIMITS.syncSetMaxItems });
  const template = prepare(fn, 'x');
  return list.map((value, i) => {
    try {
      const checked = v.textItem(fn, v.itemName(name, i), value);
      return { ...template, parameters: { ...template.parameters, [field]: checked } };
    } catch (error) {
      if (error instanceof SvcError) return error;
      throw error;
    }
  });
}

interface TextRow { ord: number; result: string | null; error: string | null }

/**
 * A set-based generation's prompts, several to a request where their outputs are short enough
 * (src/queue/generate-many.ts): each cached, and failed, alone. None where one prompt's output may
 * already take a request's whole budget of tokens.
 */
function generationTogether(template: jobs.PreparedJob): Together | undefined {
  const functionName = template.functionName;
  if (!isGenerateManyFunction(functionName)) return undefined;
  const max = promptsPerRequest(functionName, template.parameters);
  if (max < 2) return undefined;
  return {
    max,
    weight: (job) => (job.parameters.prompt as string).length,
    maxWeight: GENERATE_MANY_MAX_CHARS,
    request: (prompts) => ({ functionName: 'generate_many', parameters: generateManyParameters(functionName, prompts.map((job) => job.parameters)), grammar: prompts[0].grammar }),
    split: (result) => readGenerateManyResult(result).map((part) => (typeof part === 'string' ? { decoded: part } : part)),
    spread: true,
  };
}

function textRows(fn: string, items: Item[]): TextRow[] {
  const template = items.find((item): item is jobs.PreparedJob => !(item instanceof SvcError));
  const together = template && generationTogether(template);
  return runAll(fn, items, together).map((o, i) => ({ ord: i + 1, result: o.error ? null : ((o.decoded as string | undefined) ?? o.result), error: o.error?.message ?? null }));
}

export function generate(prompt: unknown, ...g: jobs.GenerationArgList): string {
  return runOne('svc_generate', jobs.prepareGenerate('svc_generate', prompt, jobs.generationArgs(g)));
}

export function generateMany(prompts: unknown, ...g: jobs.GenerationArgList): TextRow[] {
  const fn = 'svc_generate';
  return textRows(fn, prepareMany(fn, 'prompts', 'prompt', prompts, (f, p) => jobs.prepareGenerate(f, p, jobs.generationArgs(g))));
}

export function embed(textInput: unknown, useCache: unknown): number[] {
  return JSON.parse(runOne('svc_embed', jobs.prepareEmbed('svc_embed', textInput, useCache))) as number[];
}

/** svc_embed's texts, EMBED_MANY_MAX_TEXTS to a request (src/queue/embed-many.ts); each cached, and failed, alone. */
const EMBED_TOGETHER: Together = {
  max: EMBED_MANY_MAX_TEXTS,
  weight: (job) => (job.parameters.text_input as string).length,
  maxWeight: EMBED_MANY_MAX_CHARS,
  request: (texts) => ({ functionName: 'embed_many', parameters: embedManyParameters(texts.map((job) => job.parameters)), grammar: null }),
  split: (result) => readEmbedManyResult(result).map((part) => (Array.isArray(part) ? { decoded: part } : part)),
};

export function embedMany(texts: unknown, useCache: unknown): Array<{ ord: number; embedding: number[] | null; error: string | null }> {
  const fn = 'svc_embed';
  const outcomes = runAll(fn, prepareMany(fn, 'texts', 'text_input', texts, (f, t) => jobs.prepareEmbed(f, t, useCache)), EMBED_TOGETHER);
  return outcomes.map((o, i) => ({
    ord: i + 1,
    embedding: o.error ? null : ((o.decoded ?? JSON.parse(o.result!)) as number[]),
    error: o.error?.message ?? null,
  }));
}

export function generateJson(prompt: unknown, schema: unknown, ...g: jobs.GenerationArgList): string {
  return runOne('svc_generate_json', jobs.prepareJson('svc_generate_json', prompt, schema, jobs.generationArgs(g)));
}

export function generateJsonMany(prompts: unknown, schema: unknown, ...g: jobs.GenerationArgList): TextRow[] {
  const fn = 'svc_generate_json';
  return textRows(fn, prepareMany(fn, 'prompts', 'prompt', prompts, (f, p) => jobs.prepareJson(f, p, schema, jobs.generationArgs(g))));
}

// The text overloads: the schema as written, its properties' order kept (jobs.SchemaText).
export const generateJsonText = (prompt: unknown, schema: unknown, ...g: jobs.GenerationArgList): string => generateJson(prompt, new jobs.SchemaText(schema), ...g);

export const generateJsonManyText = (prompts: unknown, schema: unknown, ...g: jobs.GenerationArgList): TextRow[] =>
  generateJsonMany(prompts, new jobs.SchemaText(schema), ...g);

export function generateRegex(prompt: unknown, pattern: unknown, ...g: jobs.GenerationArgList): string {
  return runOne('svc_generate_regex', jobs.prepareRegex('svc_generate_regex', prompt, pattern, jobs.generationArgs(g)));
}

export function generateRegexMany(prompts: unknown, pattern: unknown, ...g: jobs.GenerationArgList): TextRow[] {
  const fn = 'svc_generate_regex';
  return textRows(fn, prepareMany(fn, 'prompts', 'prompt', prompts, (f, p) => jobs.prepareRegex(f, p, pattern, jobs.generationArgs(g))));
}

export function generateChoice(prompt: unknown, choices: unknown, ...g: jobs.GenerationArgList): string {
  return runOne('svc_generate_choice', jobs.prepareChoice('svc_generate_choice', prompt, choices, jobs.generationArgs(g)));
}

export function generateChoiceMany(prompts: unknown, choices: unknown, ...g: jobs.GenerationArgList): TextRow[] {
  const fn = 'svc_generate_choice';
  return textRows(fn, prepareMany(fn, 'prompts', 'prompt', prompts, (f, p) => jobs.prepareChoice(f, p, choices, jobs.generationArgs(g))));
}

// A rerank result as the worker wrote it: every document, best first, with its position (from 0) in `documents`.
type Ranking = Array<{ index: number; document: string; score: number }>;
type Ranked = Array<{ document: string; score: number }>;

/**
 * The first top_k of a ranking (NULL: all of it). Cut here, after the request ran, so the request,
 * its cache entry and every score are those of the call without top_k.
 */
function topK(fn: string, value: unknown): number {
  return value === null || value === undefined ? Infinity : v.integerInRange(fn, 'top_k', value, 1, 2147483647);
}
const ranking = (result: string, k: number): Ranking => (JSON.parse(result) as Ranking).slice(0, k);
const ranked = (result: string, k: number): Ranked => ranking(result, k).map(({ document, score }) => ({ document, score }));

export function rerank(query: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown, k: unknown): Ranked {
  const fn = 'svc_rerank';
  const job = jobs.prepareRerank(fn, query, documents, task, useCache, seed);
  const cut = topK(fn, k);
  return ranked(runOne(fn, job), cut);
}

/** svc_rerank's documents alone, best first. */
export function rerankDocsOnly(query: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown, k: unknown): string[] {
  const fn = 'svc_rerank_docs_only';
  const job = jobs.prepareRerank(fn, query, documents, task, useCache, seed);
  const cut = topK(fn, k);
  return ranking(runOne(fn, job), cut).map((r) => r.document);
}

/** Every query's documents, best first, one row each with the query's position; one row of its error for a query that has one. */
interface RankedRow { ord: number; document: string | null; score: number | null; error: string | null }

function rankAll(fn: string, queries: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown, k: unknown) {
  const items = prepareMany(fn, 'queries', 'query', queries, (f, q) => jobs.prepareRerank(f, q, documents, task, useCache, seed));
  const cut = topK(fn, k);
  return { items, outcomes: runAll(fn, items), cut };
}

export function rerankMany(queries: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown, k: unknown): RankedRow[] {
  const { outcomes, cut } = rankAll('svc_rerank', queries, documents, task, useCache, seed, k);
  return outcomes.flatMap((o, i): RankedRow[] =>
    o.error ? [{ ord: i + 1, document: null, score: null, error: o.error.message }] : ranked(o.result!, cut).map((r) => ({ ord: i + 1, ...r, error: null })),
  );
}

interface BatchRow { ord: number; query: string | null; rank: number | null; doc_index: number | null; document: string | null; score: number | null; error: string | null }

/** svc_rerank_batch: the set-based svc_rerank with each row's query, its rank (from 1) and the document's position in `documents` (from 1). */
export function rerankBatch(queries: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown, k: unknown): BatchRow[] {
  const { items, outcomes, cut } = rankAll('svc_rerank_batch', queries, documents, task, useCache, seed, k);
  return outcomes.flatMap((o, i): BatchRow[] => {
    const item = items[i];
    const query = item instanceof SvcError ? null : (item.parameters.query as string);
    if (o.error) return [{ ord: i + 1, query, rank: null, doc_index: null, document: null, score: null, error: o.error.message }];
    return ranking(o.result!, cut).map((r, rank) => ({ ord: i + 1, query, rank: rank + 1, doc_index: r.index + 1, document: r.document, score: r.score, error: null }));
  });
}
