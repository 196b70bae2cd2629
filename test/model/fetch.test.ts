// Models by name, without the internet: a hub on 127.0.0.1 (HF_ENDPOINT) serves the GGUFs shipped in
// models/ in the hub's layout (/<user>/<repo>/resolve/<branch>/<file>, the v2 manifest of a quant
// tag, ranges, the sha256 as X-Linked-ETag), and can break a transfer off or corrupt its bytes.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { embed, unloadModels } from '../../src/client/index.js';
import { modelCacheDir, resolveModelFile, ModelFetchError } from '../../src/model/fetch.js';
import { EMBED_MODEL, STORIES_MODEL } from '../helpers/real-models.js';
import { parseModelList } from '../../src/engine/model-list.js';
import { useSvc } from '../helpers/svc.js';
import { eventually, startWorker } from '../helpers/worker.js';

const FILES: Record<string, Buffer> = {
  'svc/stories/stories260K.gguf': readFileSync(STORIES_MODEL),
  'svc/embed-GGUF/svc-embed.Q8_0.gguf': readFileSync(EMBED_MODEL),
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Hub {
  endpoint: string;
  requests: { path: string; range?: string }[];
  /** What the next file transfer does: send it all, stop after n bytes and drop the connection, or flip a byte. */
  mode: 'ok' | 'interrupt' | 'corrupt';
  /** Milliseconds between 64 KiB chunks (a slow hub, for concurrent fetches). */
  delay: number;
  server: Server;
}

async function startHub(): Promise<Hub> {
  const hub = { requests: [], mode: 'ok', delay: 0 } as unknown as Hub;
  hub.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    hub.requests.push({ path: url.pathname, range: req.headers.range });
    const manifest = /^\/v2\/([^/]+)\/([^/]+)\/manifests\/([^/]+)$/.exec(url.pathname);
    if (manifest) {
      const prefix = `${manifest[1]}/${manifest[2]}/`;
      const file = Object.keys(FILES).find(
        (f) => f.startsWith(prefix) && f.toUpperCase().includes(manifest[3].toUpperCase()),
      );
      if (!file) return res.writeHead(404).end('{}');
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ggufFile: { rfilename: file.slice(prefix.length) } }));
    }
    const m = /^\/([^/]+)\/([^/]+)\/resolve\/main\/(.+)$/.exec(url.pathname);
    const body = m && FILES[`${m[1]}/${m[2]}/${decodeURIComponent(m[3])}`];
    if (!body) return res.writeHead(404).end('not found');
    const start = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
    const bytes = Buffer.from(body.subarray(start));
    const mode = hub.mode;
    hub.mode = 'ok';
    if (mode === 'corrupt') bytes[bytes.length >> 1] ^= 0xff;
    res.writeHead(start > 0 ? 206 : 200, {
      'content-length': bytes.length,
      'x-linked-etag': `"${sha(body)}"`,
      ...(start > 0 ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    const end = mode === 'interrupt' ? bytes.length >> 1 : bytes.length;
    let at = 0;
    const pump = () => {
      if (at >= end) return mode === 'interrupt' ? res.destroy() : res.end();
      const next = Math.min(end, at + 65536);
      res.write(bytes.subarray(at, next));
      at = next;
      setTimeout(pump, hub.delay);
    };
    pump();
  });
  await new Promise<void>((resolve) => hub.server.listen(0, '127.0.0.1', resolve));
  const address = hub.server.address() as { port: number };
  hub.endpoint = `http://127.0.0.1:${address.port}/`;
  return hub;
}

let hub: Hub;
let cache: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await unloadModels();
  hub.server.closeAllConnections();
  await new Promise((resolve) => hub.server.close(resolve));
});
beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'svc-model-cache-'));
  env = { ...process.env, HF_ENDPOINT: hub.endpoint, SVC_MODEL_CACHE: cache };
  hub.requests.length = 0;
  hub.mode = 'ok';
  hub.delay = 0;
});
afterEach(() => rmSync(cache, { recursive: true, force: true }));

const STORIES_URI = 'hf:svc/stories/stories260K.gguf';
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: ModelFetchError) => e,
  );

test('the cache is $SVC_MODEL_CACHE, else $XDG_CACHE_HOME/svc/models, else ~/.cache/svc/models', () => {
  expect(modelCacheDir({ SVC_MODEL_CACHE: '/c' })).toBe('/c');
  expect(modelCacheDir({ XDG_CACHE_HOME: '/x' })).toBe('/x/svc/models');
  expect(modelCacheDir({ HOME: '/h' })).toMatch(/\.cache\/svc\/models$/);
});

test("a hub URI is fetched once into the cache, in the hub's layout, recorded, then read from the cache", async () => {
  const progress: number[] = [];
  const path = await resolveModelFile(STORIES_URI, { onProgress: (s) => progress.push(s.received) }, env);
  expect(path).toBe(join(cache, 'hf/svc/stories/stories260K.gguf'));
  expect(sha(readFileSync(path))).toBe(sha(FILES['svc/stories/stories260K.gguf']));
  expect(JSON.parse(readFileSync(`${path}.svc.json`, 'utf8'))).toMatchObject({
    uri: STORIES_URI,
    url: `${hub.endpoint}svc/stories/resolve/main/stories260K.gguf?download=true`,
    size: FILES['svc/stories/stories260K.gguf'].length,
    sha256: sha(FILES['svc/stories/stories260K.gguf']),
  });
  expect(progress.at(-1)).toBe(FILES['svc/stories/stories260K.gguf'].length);
  expect(hub.requests).toHaveLength(1);
  expect(await resolveModelFile(STORIES_URI, {}, env)).toBe(path);
  expect(hub.requests).toHaveLength(1); // no second request
  expect(existsSync(`${path}.part`) || existsSync(`${path}.lock`)).toBe(false);
});

test('a quant tag is resolved by the hub manifest; an https/http URL is fetched as it is', async () => {
  const path = await resolveModelFile('hf:svc/embed-GGUF:Q8_0', {}, env);
  expect(path).toBe(join(cache, 'hf/svc/embed-GGUF/svc-embed.Q8_0.gguf'));
  expect(hub.requests.map((r) => r.path)).toEqual([
    '/v2/svc/embed-GGUF/manifests/Q8_0',
    '/svc/embed-GGUF/resolve/main/svc-embed.Q8_0.gguf',
  ]);
  const url = `${hub.endpoint}svc/stories/resolve/main/stories260K.gguf`;
  const byUrl = await resolveModelFile(url, {}, env);
  expect(byUrl).toBe(
    join(cache, 'url', new URL(hub.endpoint).host.replace(':', '_'), 'svc/stories/resolve/main/stories260K.gguf'),
  );
  expect(sha(readFileSync(byUrl))).toBe(sha(FILES['svc/stories/stories260K.gguf']));
});

test('an interrupted transfer is an error naming the URI and the cache path; the next fetch resumes it with a range', async () => {
  hub.mode = 'interrupt';
  const error = await failure(resolveModelFile(STORIES_URI, {}, env));
  const path = join(cache, 'hf/svc/stories/stories260K.gguf');
  expect(error).toBeInstanceOf(ModelFetchError);
  expect(error!.message).toContain(STORIES_URI);
  expect(error!.message).toContain(path);
  expect(error!.message).toMatch(/broke off after \d+ of|ended after \d+ of/);
  expect(existsSync(path)).toBe(false);
  const partial = statSync(`${path}.part`).size;
  expect(partial).toBeGreaterThan(0);

  expect(await resolveModelFile(STORIES_URI, {}, env)).toBe(path);
  expect(hub.requests.at(-1)!.range).toBe(`bytes=${partial}-`);
  expect(sha(readFileSync(path))).toBe(sha(FILES['svc/stories/stories260K.gguf']));
});

test("corrupt bytes (not the hub's sha256) are discarded with an error; nothing is left under the model's name", async () => {
  hub.mode = 'corrupt';
  const error = await failure(resolveModelFile(STORIES_URI, {}, env));
  const path = join(cache, 'hf/svc/stories/stories260K.gguf');
  expect(error!.message).toMatch(/sha256 [0-9a-f]{64}, the server announced [0-9a-f]{64}: the download was discarded/);
  expect(error!.message).toContain(STORIES_URI);
  expect(existsSync(path) || existsSync(`${path}.part`)).toBe(false);
  expect(await resolveModelFile(STORIES_URI, {}, env)).toBe(path);
});

test('a cached file changed after its fetch fails its check at load, naming the file and the URI', async () => {
  const path = await resolveModelFile(STORIES_URI, {}, env);
  const bytes = readFileSync(path);
  bytes[1000] ^= 1;
  writeFileSync(path, bytes);
  const error = await failure(resolveModelFile(STORIES_URI, {}, env));
  expect(error!.message).toMatch(
    /^the cached .*stories260K\.gguf of hf:svc\/stories\/stories260K\.gguf is not the file fetched on .*: sha256 [0-9a-f]{64}, recorded [0-9a-f]{64}; delete it/,
  );
  writeFileSync(path, bytes.subarray(0, 100));
  expect((await failure(resolveModelFile(STORIES_URI, {}, env)))!.message).toMatch(/100 bytes, recorded 1185344/);
});

test('offline or unknown: a clear error naming the URI and the cache path', async () => {
  const offline = { ...env, HF_ENDPOINT: 'http://127.0.0.1:9/' };
  const error = await failure(resolveModelFile(STORIES_URI, {}, offline));
  expect(error!.message).toMatch(
    new RegExp(
      `^cannot fetch hf:svc/stories/stories260K.gguf \\(http://127.0.0.1:9/.*\\) into the cache ${cache}/hf/svc/stories/stories260K.gguf: unreachable`,
    ),
  );
  const tag = await failure(resolveModelFile('hf:svc/stories:Q4_K_M', {}, offline));
  expect(tag!.message).toMatch(/^cannot resolve hf:svc\/stories:Q4_K_M: the hub .* is unreachable.*\(cache /);
  expect((await failure(resolveModelFile('hf:svc/none/x.gguf', {}, env)))!.message).toMatch(/the server answered 404/);
  expect((await failure(resolveModelFile('hf:svc', {}, env)))!.message).toMatch(
    /^model URI hf:svc: a hub URI is hf:<user>\/<repo>\/<file>.gguf/,
  );
  expect((await failure(resolveModelFile('hf:svc/stories/../x.gguf', {}, env)))!.message).toMatch(/"\.\."/);
  expect((await failure(resolveModelFile('/no/such/model.gguf', {}, env)))!.message).toBe(
    'model file not found: /no/such/model.gguf',
  );
  expect((await failure(resolveModelFile('hf:svc/stories/x.gguf#../../..', {}, env)))!.message).toMatch(
    /^model URI hf:svc\/stories\/x.gguf#..\/..\/..: at most one '#<branch>'/,
  );
  // An escaped "/" or ".." in a URL's path never leads out of the cache.
  expect((await failure(resolveModelFile(`${hub.endpoint}a/%2E%2E%2F%2E%2E%2Fx.gguf`, {}, env)))!.message).toMatch(
    /its path has a "\.\." part \(cache /,
  );
  expect((await failure(resolveModelFile(`${hub.endpoint}a/..%5Cx.gguf`, {}, env)))!.message).toMatch(
    /its path has a "\.\." part \(cache /,
  );
});

test('two processes fetching one model at once: one fetches, the other waits, both get the same checked file', async () => {
  hub.delay = 150; // ~3 s for the 1.2 MB file: the second process starts while the first fetches
  const script = `import { resolveModelFile } from './src/model/fetch.ts'; console.log(await resolveModelFile(${JSON.stringify(STORIES_URI)}));`;
  const run = () =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(err))));
    });
  const [a, b] = await Promise.all([run(), run()]);
  expect(a).toBe(join(cache, 'hf/svc/stories/stories260K.gguf'));
  expect(b).toBe(a);
  expect(hub.requests.filter((r) => r.path.endsWith('.gguf'))).toHaveLength(1);
  expect(sha(readFileSync(a))).toBe(sha(FILES['svc/stories/stories260K.gguf']));
}, 60_000);

test('a fetching process killed mid-transfer: the next one takes its lock over and resumes its bytes', async () => {
  hub.delay = 100;
  const path = join(cache, 'hf/svc/stories/stories260K.gguf');
  const script = `import { resolveModelFile } from './src/model/fetch.ts'; await resolveModelFile(${JSON.stringify(STORIES_URI)});`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env,
    stdio: 'ignore',
  });
  await eventually('half the file', async () => existsSync(`${path}.part`) && statSync(`${path}.part`).size > 500_000);
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  expect(readFileSync(`${path}.lock`, 'utf8')).toMatch(new RegExp(` ${child.pid}$`));
  const partial = statSync(`${path}.part`).size;
  hub.delay = 0;
  expect(await resolveModelFile(STORIES_URI, {}, env)).toBe(path);
  expect(hub.requests.at(-1)!.range).toBe(`bytes=${partial}-`);
  expect(sha(readFileSync(path))).toBe(sha(FILES['svc/stories/stories260K.gguf']));
  expect(existsSync(`${path}.lock`)).toBe(false);
}, 60_000);

test('the library loads a model by hub URI (the engine resolves it through the cache)', async () => {
  const saved = { HF_ENDPOINT: process.env.HF_ENDPOINT, SVC_MODEL_CACHE: process.env.SVC_MODEL_CACHE };
  Object.assign(process.env, { HF_ENDPOINT: hub.endpoint, SVC_MODEL_CACHE: cache });
  try {
    const uri = 'hf:svc/embed-GGUF/svc-embed.Q8_0.gguf';
    expect(await embed('a red ball', { model: uri })).toEqual(await embed('a red ball', { model: EMBED_MODEL }));
    expect(existsSync(join(cache, 'hf/svc/embed-GGUF/svc-embed.Q8_0.gguf.svc.json'))).toBe(true);
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}, 60_000);

/** `svc ARGS` with the test's environment: exit code, stdout, stderr. */
function svcCommand(
  args: string[],
  environment: NodeJS.ProcessEnv,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/svc.js', ...args], {
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

test('svc models pull fetches a URI (progress on stderr, the path on stdout); list says what the cache holds; bad names exit 2', async () => {
  const pulled = await svcCommand(['models', 'pull', STORIES_URI], env);
  expect(pulled).toMatchObject({ code: 0, out: `${join(cache, 'hf/svc/stories/stories260K.gguf')}\n` });
  expect(pulled.err).toMatch(/^fetching: 0\.0 MB of 1\.2 MB, 0%\n(.*\n)*fetching: 1\.2 MB of 1\.2 MB, 100%\n$/);
  const listed = await svcCommand(['models', 'list'], env);
  expect(listed.code).toBe(0);
  expect(listed.out).toContain(
    'bge-small-en           embed    hf:CompendiumLabs/bge-small-en-v1.5-gguf/bge-small-en-v1.5-q8_0.gguf',
  );
  expect(listed.out).toContain('not cached');
  const bad = await svcCommand(['models', 'pull', 'nope'], env);
  expect(bad.code).toBe(2);
  expect(bad.err).toMatch(
    /^svc models: 'nope' is neither a model svc knows \(stories260K, svc-embed, bge-small-en, bge-reranker-v2-m3, qwen2\.5-0\.5b-instruct, qwen2\.5-7b-instruct\) nor a hub URI/,
  );
  const offline = await svcCommand(['models', 'pull', 'bge-small-en'], { ...env, HF_ENDPOINT: 'http://127.0.0.1:9/' });
  expect(offline.code).toBe(1);
  expect(offline.err).toContain(
    `into the cache ${cache}/hf/CompendiumLabs/bge-small-en-v1.5-gguf/bge-small-en-v1.5-q8_0.gguf: unreachable`,
  );
}, 60_000);

test('a worker list names a model by hub URI or by URL of a GGUF file (a URL of no GGUF file is still a server to name)', () => {
  expect(
    parseModelList('embed=https://example.org/m/x.gguf?download=true,default=hf:svc/stories/stories260K.gguf'),
  ).toEqual([
    { name: 'embed', path: 'https://example.org/m/x.gguf?download=true' },
    { name: 'default', path: 'hf:svc/stories/stories260K.gguf' },
  ]);
  expect(() => parseModelList('writer=http://gpu-1:8080')).toThrow(/say which protocol the server speaks/);
});

describe('a worker serving models by URI', () => {
  const svc = useSvc();

  test('it fetches them into the cache, logs the progress, then serves svc_embed with them', async () => {
    const db = await svc().connect();
    const worker = startWorker(
      svc().cluster,
      { HF_ENDPOINT: hub.endpoint, SVC_MODEL_CACHE: cache },
      `default=${STORIES_URI},embed=${hub.endpoint}svc/embed-GGUF/resolve/main/svc-embed.Q8_0.gguf`,
    );
    try {
      await eventually(
        'the worker',
        async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
      );
      const fetching = worker.logs
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'fetching model');
      expect(fetching.filter((l) => l.model === 'default').at(-1)).toMatchObject({
        uri: STORIES_URI,
        received: 1185344,
        total: 1185344,
      });
      expect(fetching.some((l) => l.model === 'embed')).toBe(true);
      await db.query(`SET svc.embed_model = 'embed'`);
      const vector = (await db.query('SELECT svc_embed($1) AS v', ['a red ball'])).rows[0].v as number[];
      expect(vector.map(Math.fround)).toEqual((await embed('a red ball', { model: EMBED_MODEL })).map(Math.fround));
    } finally {
      await worker.stop();
    }
  }, 120_000);

  test('a model the hub cannot give is a configuration error naming the URI and the cache path', async () => {
    const worker = startWorker(
      svc().cluster,
      { HF_ENDPOINT: 'http://127.0.0.1:9/', SVC_MODEL_CACHE: cache },
      STORIES_URI,
    );
    expect(await worker.exited).not.toBe(0);
    expect(worker.logs.join('\n')).toContain(
      `--model ${STORIES_URI}: cannot fetch ${STORIES_URI} (http://127.0.0.1:9/svc/stories/resolve/main/stories260K.gguf?download=true) into the cache ${cache}/hf/svc/stories/stories260K.gguf: unreachable`,
    );
  }, 60_000);
});
