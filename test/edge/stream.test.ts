// /generate with "stream": true (#37) in workerd (Miniflare) on stories260K: server-sent events, the
// pieces as the engine writes them, then a done event whose text is byte for byte the answer without
// stream (fresh or cached), and which is cached as that answer is. Errors before the first piece are
// the JSON errors of the call without stream; a failure after it is an error event.
import { startWorker, eventually, type Worker } from './helpers.js';

let w: Worker;
beforeAll(async () => {
  w = await startWorker();
});
afterAll(async () => {
  await w?.mf.dispose();
});

interface Event {
  event: string;
  data: Record<string, unknown>;
}

/** The events of a server-sent event stream (every data line here is one JSON value). */
function parseEvents(body: string): Event[] {
  return body
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.find((l) => l.startsWith('data: '))!.slice(6);
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

async function stream(body: Record<string, unknown>) {
  const res = await w.post('/generate', { ...body, stream: true });
  const raw = await res.text();
  const type = res.headers.get('Content-Type');
  if (res.status !== 200 || !type?.startsWith('text/event-stream'))
    return { status: res.status, type, json: JSON.parse(raw) as Record<string, unknown>, events: [] };
  const events = parseEvents(raw);
  const pieces = events.filter((e) => e.event === 'message').map((e) => e.data.text as string);
  return { status: res.status, type, events, pieces, last: events.at(-1)! };
}

const plain = async (body: Record<string, unknown>) => {
  const res = await w.post('/generate', body);
  return { status: res.status, body: (await res.json()) as { text?: string; cached?: boolean; error?: string } };
};

test('a miss: the pieces as they come, then done with the text the call without stream answers; the result is cached as that answer', async () => {
  const run = await stream({ prompt: 'Once upon a time', max_tokens: 120 });
  expect(run.status).toBe(200);
  expect(run.type).toBe('text/event-stream; charset=utf-8');
  expect(run.pieces!.length).toBeGreaterThan(10);
  expect(run.last).toEqual({
    event: 'done',
    data: { text: run.pieces!.join(''), cached: false, tokens: 120, stop_reason: 'max_tokens' },
  });
  // The same request without stream: answered from the cache the stream filled, the same bytes.
  const cached = await eventually(async () => {
    const again = await plain({ prompt: 'Once upon a time', max_tokens: 120 });
    return again.body.cached ? again : undefined;
  });
  expect(cached.body).toEqual({ text: run.last!.data.text, cached: true });
  // And a fresh engine computation without stream gives those bytes too (the engine object itself, uncached).
  const engine = await w.engine();
  const fresh = (await (
    await engine.fetch('https://engine.internal/', {
      method: 'POST',
      body: JSON.stringify({ method: 'generate', params: { prompt: 'Once upon a time', max_tokens: 120 } }),
    })
  ).json()) as { text: string };
  expect(fresh.text).toBe(run.last!.data.text);
});

test('a hit: the cached text in one piece, then done with cached true', async () => {
  const first = await plain({ prompt: 'Lily had a ball', max_tokens: 40 });
  expect(first.body.cached).toBe(false);
  const run = await eventually(async () => {
    const r = await stream({ prompt: 'Lily had a ball', max_tokens: 40 });
    return r.last?.data.cached === true ? r : undefined;
  });
  expect(run.events).toEqual([
    { event: 'message', data: { text: first.body.text } },
    { event: 'done', data: { text: first.body.text, cached: true } },
  ]);
});

test('constraints: multi-byte characters come whole; a schema streams its JSON; an output cut short is an error event, not cached', async () => {
  const kanji = await stream({ prompt: 'Text:', regex: '[日本語]{5}', max_tokens: 40 });
  expect(kanji.last!.data.text).toMatch(/^[日本語]{5}$/);
  expect(kanji.pieces!.join('')).toBe(kanji.last!.data.text);
  expect(kanji.last!.data.stop_reason).toBe('end');
  const schema = {
    type: 'object',
    properties: { name: { type: 'string', maxLength: 12 } },
    required: ['name'],
    additionalProperties: false,
  };
  const json = await stream({ prompt: 'A girl as JSON:', schema, max_tokens: 40 });
  expect(JSON.parse(json.last!.data.text as string)).toHaveProperty('name');
  expect((await plain({ prompt: 'A girl as JSON:', schema, max_tokens: 40 })).body.text).toBe(json.last!.data.text);

  const cut = await stream({
    prompt: 'Cut short, streamed',
    schema: { type: 'object', properties: { story: { type: 'string' } }, required: ['story'] },
    max_tokens: 3,
  });
  expect(cut.status).toBe(200);
  expect(cut.last!.event).toBe('error');
  expect(cut.last!.data).toEqual({
    status: 422,
    error: expect.stringMatching(
      /^output ".*" does not satisfy the schema \(generation stopped after \d+ tokens of max_tokens 3: raise max_tokens\)$/,
    ),
  });
  await new Promise((r) => setTimeout(r, 300));
  expect(
    await w.db.prepare(`SELECT count(*) AS n FROM generation_cache WHERE prompt = 'Cut short, streamed'`).first(),
  ).toEqual({ n: 0 });
});

test('bad input is the JSON 400 of the call without stream, before any event, naming the field', async () => {
  expect(await stream({ prompt: '' })).toMatchObject({ status: 400, json: { error: 'Prompt required' } });
  expect(await stream({ prompt: 'x', max_tokens: 0 })).toMatchObject({
    status: 400,
    json: { error: 'max_tokens must be an integer from 1 to 512' },
  });
  expect(await stream({ prompt: 'x', regex: 'a(' })).toMatchObject({ status: 400 });
  const res = await w.post('/generate', { prompt: 'x', stream: 'yes' });
  expect({ status: res.status, body: await res.json() }).toEqual({
    status: 400,
    body: { error: 'stream must be a boolean (true answers server-sent events)' },
  });
  // The engine's limit: a prompt that leaves no room for an output token is its 400, as without stream, and nothing of it streams.
  const prompt = 'hello world '.repeat(100); // 602 tokens
  const error = /^prompt is 602 tokens, over the 511 a context of 512 tokens leaves for a prompt/;
  const streamed = await stream({ prompt, max_tokens: 5 });
  expect(streamed.status).toBe(400);
  expect((streamed.json as { error: string }).error).toMatch(error);
  expect((await plain({ prompt, max_tokens: 5 })).body.error).toMatch(error);
});

test('the answer reaches the client while it is generated: its body comes in many reads', async () => {
  const res = await w.post('/generate', { prompt: 'The little dog', max_tokens: 300, stream: true });
  const reader = res.body!.getReader();
  let reads = 0;
  let body = '';
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    reads++;
    body += decoder.decode(value, { stream: true });
  }
  expect(reads).toBeGreaterThan(3);
  expect(parseEvents(body).at(-1)!.event).toBe('done');
});
