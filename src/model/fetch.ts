// Models by name: a model name (names.ts), a GGUF path, a hub URI (node-llama-cpp's `hf:` forms) or an http(s) URL, turned
// into a local file at the one place a model is loaded (the engine). A URI is fetched once into a
// cache directory, then read from there:
//
// - cache: $SVC_MODEL_CACHE, else $XDG_CACHE_HOME/svc/models, else ~/.cache/svc/models; a URI's file
//   keeps the hub's layout (hf/<user>/<repo>/<file>, url/<host>/<path>);
// - resumable: bytes go to `<file>.part`, and a later fetch asks the server for the rest (HTTP Range);
// - checked: size and sha256 are recorded on the first fetch (`<file>.svc.json`, beside the hub's own
//   sha256 when it sends one, which the bytes must match) and compared on every later load;
// - atomic and shared: the file appears under its name only complete and checked (rename), and one
//   process at a time fetches it (`<file>.lock`, created exclusively; a lock whose process is gone
//   is taken over), the others wait for it and then read the same file;
// - errors name the URI, the URL and the cache path (ModelFetchError).
//
// The hub is $HF_ENDPOINT (else $MODEL_ENDPOINT, else https://huggingface.co), as node-llama-cpp and
// llama.cpp read it.

import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { homedir, hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { modelSource } from './names.js';

/** A model that cannot be fetched or whose cached copy fails its check: the message names the URI and the cache path. */
export class ModelFetchError extends Error {
  constructor(
    message: string,
    readonly uri: string,
    readonly cachePath: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ModelFetchError';
  }
}

/** Progress of a fetch: bytes on disk (resumed ones included) of `total` (0 while unknown). */
export type FetchProgress = (status: {
  uri: string;
  path: string;
  received: number;
  total: number;
  resumedFrom: number;
}) => void;

export interface ResolveOptions {
  /** Cache directory (default: modelCacheDir()). */
  cacheDir?: string;
  onProgress?: FetchProgress;
  /** Called with a URI's cached file's sha256 once its check has computed it (not for a path). */
  onVerified?: (sha256: string) => void;
  signal?: AbortSignal;
}

/** What the cache records of a fetched model, beside it as `<file>.svc.json`. */
export interface FetchRecord {
  uri: string;
  url: string;
  size: number;
  sha256: string;
  fetchedAt: string;
}

/** The cache directory: $SVC_MODEL_CACHE, else $XDG_CACHE_HOME/svc/models, else ~/.cache/svc/models. */
export function modelCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SVC_MODEL_CACHE) return env.SVC_MODEL_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'svc', 'models');
}

/** The hub's base URL, with a final slash. */
function hubEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.HF_ENDPOINT || env.MODEL_ENDPOINT || 'https://huggingface.co/';
  return url.endsWith('/') ? url : url + '/';
}

/** Whether `model` names a remote file (a hub URI or an http(s) URL) rather than a path. */
export function isModelUri(model: string): boolean {
  return /^hf:/i.test(model) || /^https?:\/\//i.test(model);
}

/** A hub file: `hf:<user>/<repo>/<path>[#<branch>]`, or `hf:<user>/<repo>[:<quant>]` resolved by the hub's manifest. */
interface HubRef {
  user: string;
  repo: string;
  branch: string;
  file?: string;
  tag?: string;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function parseHub(uri: string): HubRef {
  const body = uri.slice(3);
  const [path, branch = 'main', ...more] = body.split('#');
  const parts = path.split('/');
  const bad = (rule: string) => new ModelFetchError(`model URI ${uri}: ${rule}`, uri, '');
  if (more.length > 0 || !SEGMENT.test(branch)) throw bad("at most one '#<branch>': letters, digits, '.', '_' or '-'");
  if (parts.length < 2) throw bad('a hub URI is hf:<user>/<repo>/<file>.gguf or hf:<user>/<repo>:<quant>');
  const [user, repoTag, ...file] = parts;
  const [repo, tag, ...tagMore] = repoTag.split(':');
  if (!SEGMENT.test(user) || !SEGMENT.test(repo) || tagMore.length > 0)
    throw bad('user and repository are letters, digits, ".", "_" or "-"');
  if (file.some((f) => f === '' || f === '.' || f === '..')) throw bad('the file path has an empty, "." or ".." part');
  if (file.length > 0 && tag !== undefined) throw bad("give a file path or a ':<quant>' tag, not both");
  return {
    user,
    repo,
    branch,
    file: file.length ? file.join('/') : undefined,
    tag: file.length ? undefined : (tag ?? 'latest'),
  };
}

const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

/** The URL and the cache-relative path of an http(s) URL or a hub file URI; undefined for a hub tag (its file is the manifest's). */
function locateFile(uri: string, env: NodeJS.ProcessEnv): { url: string; relative: string } | undefined {
  if (/^https?:\/\//i.test(uri)) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new ModelFetchError(`model URL ${uri} does not parse`, uri, '');
    }
    // Cache path parts as decoded, so an escaped "/" or ".." cannot lead out of the cache.
    let parts: string[];
    try {
      parts = url.pathname.split('/').flatMap((p) => decodeURIComponent(p).split(/[/\\]/));
    } catch {
      throw new ModelFetchError(`model URL ${uri}: its path does not decode`, uri, '');
    }
    if (parts.includes('..')) throw new ModelFetchError(`model URL ${uri}: its path has a ".." part`, uri, '');
    parts = parts.filter((p) => p !== '' && p !== '.');
    if (parts.length === 0) throw new ModelFetchError(`model URL ${uri} names no file`, uri, '');
    return { url: url.href, relative: join('url', url.host.replace(/[^A-Za-z0-9.-]/g, '_'), ...parts) };
  }
  const hub = parseHub(uri);
  return hub.file === undefined ? undefined : hubFile(hub, hub.file, env);
}

function hubFile(hub: HubRef, file: string, env: NodeJS.ProcessEnv): { url: string; relative: string } {
  return {
    url: `${hubEndpoint(env)}${encodeURIComponent(hub.user)}/${encodeURIComponent(hub.repo)}/resolve/${encodeURIComponent(hub.branch)}/${encodePath(file)}?download=true`,
    relative: join('hf', hub.user, hub.repo, ...(hub.branch === 'main' ? [] : [`@${hub.branch}`]), ...file.split('/')),
  };
}

/** The URL and the cache-relative path of a URI; a hub tag asks the hub's manifest (as llama.cpp does) which file it is. */
async function locate(
  uri: string,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<{ url: string; relative: string }> {
  const known = locateFile(uri, env);
  if (known) return known;
  const hub = parseHub(uri);
  const manifest = `${hubEndpoint(env)}v2/${encodeURIComponent(hub.user)}/${encodeURIComponent(hub.repo)}/manifests/${encodeURIComponent(hub.tag!)}`;
  const response = await fetch(manifest, {
    headers: { 'User-Agent': 'llama-cpp', ...authorization(env) },
    signal,
  }).catch((error: Error) => {
    throw new ModelFetchError(
      `cannot resolve ${uri}: the hub (${manifest}) is unreachable: ${error.message}`,
      uri,
      '',
      { cause: error },
    );
  });
  if (!response.ok)
    throw new ModelFetchError(`cannot resolve ${uri}: the hub answered ${response.status} for ${manifest}`, uri, '');
  const body = (await response.json().catch(() => null)) as { ggufFile?: { rfilename?: unknown } } | null;
  const file = body?.ggufFile?.rfilename;
  if (typeof file !== 'string' || file.split('/').some((f) => f === '' || f === '.' || f === '..'))
    throw new ModelFetchError(`cannot resolve ${uri}: the hub's manifest names no GGUF file`, uri, '');
  return hubFile(hub, file, env);
}

/** Where the cache holds `uri`'s file when it was fetched (checked at load), without asking the network; undefined otherwise. */
export function cachedModelFile(uri: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const located = locateFile(uri, env);
  const path = located && join(modelCacheDir(env), located.relative);
  return path && existsSync(path) && existsSync(recordPath(path)) ? path : undefined;
}

const authorization = (env: NodeJS.ProcessEnv): Record<string, string> =>
  env.HF_TOKEN ? { Authorization: `Bearer ${env.HF_TOKEN}` } : {};

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const recordPath = (path: string) => `${path}.svc.json`;

function readRecord(path: string): FetchRecord | undefined {
  try {
    return JSON.parse(readFileSync(recordPath(path), 'utf8')) as FetchRecord;
  } catch {
    return undefined;
  }
}

/** Checks a cached file against its record: same size, same sha256 (returned). */
async function verify(uri: string, path: string): Promise<string> {
  const record = readRecord(path);
  if (!record)
    throw new ModelFetchError(
      `the cached ${path} of ${uri} has no record (${recordPath(path)}): delete it to fetch again`,
      uri,
      path,
    );
  const size = statSync(path).size;
  const sha = size === record.size ? await sha256File(path) : '';
  if (size !== record.size || sha !== record.sha256) {
    throw new ModelFetchError(
      `the cached ${path} of ${uri} is not the file fetched on ${record.fetchedAt}: ` +
        (size !== record.size ? `${size} bytes, recorded ${record.size}` : `sha256 ${sha}, recorded ${record.sha256}`) +
        '; delete it to fetch again',
      uri,
      path,
    );
  }
  return sha;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `<path>.lock` (exclusive create); waits while another live process holds it; takes over a dead one's. */
async function lock(path: string, signal?: AbortSignal): Promise<() => void> {
  const file = `${path}.lock`;
  const me = `${hostname()} ${process.pid}`;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, me);
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = '';
    try {
      holder = readFileSync(file, 'utf8');
    } catch {
      continue; // released meanwhile
    }
    const [host, pid] = holder.split(' ');
    // A lock of this host whose process is gone (killed mid-fetch) is stale. An empty one is a lock being written.
    if (host === hostname() && Number(pid) > 0 && !alive(Number(pid))) {
      rmSync(file, { force: true });
      continue;
    }
    signal?.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The hub's sha256 of a file, when it sends one (X-Linked-ETag of an LFS file: its sha256). */
function announcedSha(response: Response): string | undefined {
  const etag = response.headers.get('x-linked-etag') ?? response.headers.get('etag') ?? '';
  const m = /^(?:W\/)?"?([0-9a-f]{64})"?$/i.exec(etag.trim());
  return m?.[1].toLowerCase();
}

async function download(
  uri: string,
  url: string,
  path: string,
  env: NodeJS.ProcessEnv,
  options: ResolveOptions,
): Promise<void> {
  const part = `${path}.part`;
  const resumedFrom = existsSync(part) ? statSync(part).size : 0;
  const fail = (why: string, cause?: unknown) =>
    new ModelFetchError(
      `cannot fetch ${uri} (${url}) into the cache ${path}: ${why}`,
      uri,
      path,
      cause === undefined ? undefined : { cause },
    );
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { ...authorization(env), ...(resumedFrom > 0 ? { Range: `bytes=${resumedFrom}-` } : {}) },
      signal: options.signal,
      redirect: 'follow',
    });
  } catch (error) {
    throw fail(
      `unreachable (${(error as Error).message}${(error as Error).cause ? `: ${((error as Error).cause as Error).message}` : ''})`,
      error,
    );
  }
  // 206: the rest of the file after what .part holds; 200: the whole file (the server ignores ranges); 416: .part is already whole.
  let offset = resumedFrom;
  if (response.status === 200) offset = 0;
  else if (response.status === 416 && resumedFrom > 0) offset = resumedFrom;
  else if (response.status !== 206) throw fail(`the server answered ${response.status} ${response.statusText}`);
  const range = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
  const length = Number(response.headers.get('content-length') ?? NaN);
  const total = range ? Number(range[1]) : response.status === 200 && Number.isFinite(length) ? length : 0;
  const expectedSha = announcedSha(response);

  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(part, offset === 0 ? 'w' : 'a');
  let received = offset;
  const report = () => options.onProgress?.({ uri, path, received, total, resumedFrom: offset });
  report();
  try {
    if (response.status !== 416 && response.body) {
      let last = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        writeSync(fd, chunk);
        received += chunk.length;
        if (Date.now() - last > 250) {
          last = Date.now();
          report();
        }
      }
    }
  } catch (error) {
    throw fail(
      `the transfer broke off after ${received} of ${total || '?'} bytes (${(error as Error).message}); fetching again resumes it`,
      error,
    );
  } finally {
    closeSync(fd);
  }
  report();
  if (total > 0 && received !== total)
    throw fail(`the transfer ended after ${received} of ${total} bytes; fetching again resumes it`);
  const sha256 = await sha256File(part);
  if (expectedSha && sha256 !== expectedSha) {
    rmSync(part, { force: true });
    throw fail(
      `the bytes received have sha256 ${sha256}, the server announced ${expectedSha}: the download was discarded`,
    );
  }
  const record: FetchRecord = { uri, url, size: received, sha256, fetchedAt: new Date().toISOString() };
  writeFileSync(`${recordPath(path)}.tmp`, JSON.stringify(record, null, 2) + '\n');
  renameSync(`${recordPath(path)}.tmp`, recordPath(path));
  renameSync(part, path);
}

/**
 * The local file of `model`: a model name (names.ts: a shipped model's file, a recommended one's
 * URI), a path as it is (it must exist), a URI's cached copy, fetched first when the cache has none,
 * and checked against its record either way. A file whose name is a model name is `./NAME` or `local:NAME`.
 */
export async function resolveModelFile(
  model: string,
  options: ResolveOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const named = modelSource(model);
  if (named !== undefined) model = named;
  if (!isModelUri(model)) {
    const path = model.startsWith('local:') ? model.slice('local:'.length) : model;
    if (!existsSync(path)) throw new ModelFetchError(`model file not found: ${path}`, model, path);
    return path;
  }
  const cacheDir = options.cacheDir ?? modelCacheDir(env);
  const { url, relative } = await locate(model, env, options.signal).catch((error: unknown) => {
    if (error instanceof ModelFetchError)
      throw new ModelFetchError(`${error.message} (cache ${cacheDir})`, model, cacheDir, { cause: error });
    throw error;
  });
  const path = join(cacheDir, relative);
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    const release = await lock(path, options.signal);
    try {
      // Another process may have fetched it while this one waited for the lock.
      if (!existsSync(path)) await download(model, url, path, env, options);
    } finally {
      release();
    }
  }
  // Checked whether or not anyone asks for the sha256 (an optional call would skip its argument).
  const sha256 = await verify(model, path);
  options.onVerified?.(sha256);
  return path;
}
