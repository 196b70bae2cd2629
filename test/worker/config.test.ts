// The worker's options and environment (worker/config.ts): pure parsing, errors naming the option.
import { ConfigError, loadConfig, parseModels } from '../../worker/config.js';
import { workerSession } from '../../worker/setup.js';

describe('--model / SVC_MODEL', () => {
  test("a bare path is the model 'default'; NAME=PATH names it; both forms repeat", () => {
    expect(loadConfig(['--model', 'models/a.gguf'], {}).models).toEqual([{ name: 'default', path: 'models/a.gguf' }]);
    expect(loadConfig(['--model', 'writer=/m/w.gguf', '--model=embedder=/m/e.gguf'], {}).models).toEqual([
      { name: 'writer', path: '/m/w.gguf' },
      { name: 'embedder', path: '/m/e.gguf' },
    ]);
    expect(loadConfig(['--model', 'models/a.gguf', '--model', 'b=hf:user/repo/b.gguf'], {}).models).toEqual([
      { name: 'default', path: 'models/a.gguf' },
      { name: 'b', path: 'hf:user/repo/b.gguf' },
    ]);
  });

  test('SVC_MODEL lists models separated by commas or newlines; --model wins over it', () => {
    expect(
      loadConfig([], { SVC_MODEL: 'writer=/m/w.gguf, embedder=/m/e.gguf\nr=/m/r.gguf' }).models.map((m) => m.name),
    ).toEqual(['writer', 'embedder', 'r']);
    expect(loadConfig(['--model', '/m/x.gguf'], { SVC_MODEL: 'writer=/m/w.gguf' }).models).toEqual([
      { name: 'default', path: '/m/x.gguf' },
    ]);
  });

  test('a path whose text before "=" is no model name is a path', () => {
    expect(parseModels('/data/a=b.gguf')).toEqual([{ name: 'default', path: '/data/a=b.gguf' }]);
  });

  test.each([
    ['a=x,a=y', /the model name "a" is given twice/],
    ['x.gguf,y.gguf', /the model name "default" is given twice \(a --model without NAME= is named default\)/],
    ['writer=', /--model writer=: the path after "writer=" is empty/],
    ['=x.gguf', /--model =x.gguf: the name before "=" is empty/],
    [' , ', /--model needs a path/],
  ])('%s is a configuration error naming the rule', (text, message) => {
    expect(() => parseModels(text)).toThrow(ConfigError);
    expect(() => parseModels(text)).toThrow(message);
  });

  test('no model at all says how to give one', () => {
    expect(() => loadConfig([], {})).toThrow(/no model: pass --model PATH or set SVC_MODEL/);
  });
});

describe('a model served by an inference server', () => {
  test('llama-server+URL and vllm+URL#model name the server; a bare URL must say its protocol', () => {
    expect(
      parseModels('writer=llama-server+http://gpu-1:8080,chat=vllm+http://gpu-2:8000/v1#Qwen/Qwen2.5-7B-Instruct'),
    ).toEqual([
      {
        name: 'writer',
        path: 'llama-server+http://gpu-1:8080',
        server: { kind: 'llama-server', url: 'http://gpu-1:8080/' },
      },
      {
        name: 'chat',
        path: 'vllm+http://gpu-2:8000/v1#Qwen/Qwen2.5-7B-Instruct',
        server: { kind: 'vllm', url: 'http://gpu-2:8000/v1', model: 'Qwen/Qwen2.5-7B-Instruct' },
      },
    ]);
    expect(() => parseModels('writer=http://gpu-1:8080')).toThrow(
      /--model writer=…: .*say which protocol the server speaks: llama-server\+http/,
    );
  });
});

describe('SVC_WORKER_STOP_GRACE', () => {
  test('seconds after SIGTERM before the jobs in flight are stopped: 30 by default, 0 for at once, never negative', () => {
    const config = (env: NodeJS.ProcessEnv) => loadConfig(['--model', 'models/a.gguf'], env);
    expect(config({}).stopGraceMs).toBe(30_000);
    expect(config({ SVC_WORKER_STOP_GRACE: '0' }).stopGraceMs).toBe(0);
    expect(config({ SVC_WORKER_STOP_GRACE: '2.5' }).stopGraceMs).toBe(2500);
    for (const bad of ['-1', 'soon']) {
      expect(() => config({ SVC_WORKER_STOP_GRACE: bad })).toThrow(
        new ConfigError(`SVC_WORKER_STOP_GRACE must be a number of at least 0 (got "${bad}")`),
      );
    }
  });
});

describe('SVC_WORKER_PROGRESS_INTERVAL', () => {
  test("seconds between two writes of a running generation's partial text: 0.5 by default, 0 writes none, a bad value is named", () => {
    const config = (env: NodeJS.ProcessEnv) => loadConfig(['--model', 'models/a.gguf'], env);
    expect(config({}).progressIntervalMs).toBe(500);
    expect(config({ SVC_WORKER_PROGRESS_INTERVAL: '2' }).progressIntervalMs).toBe(2000);
    expect(config({ SVC_WORKER_PROGRESS_INTERVAL: '0' }).progressIntervalMs).toBe(0);
    for (const bad of ['-1', 'soon']) {
      expect(() => config({ SVC_WORKER_PROGRESS_INTERVAL: bad })).toThrow(
        new ConfigError(`SVC_WORKER_PROGRESS_INTERVAL must be a number of at least 0 (got "${bad}")`),
      );
    }
  });
});

describe('#45: defaults from the model, and typos', () => {
  test("threads and context default to the engine's (undefined here): 1 thread for a small model, the model's training context", () => {
    const config = loadConfig(['--model', 'models/a.gguf'], {});
    expect(config.threads).toBeUndefined();
    expect(config.contextSize).toBeUndefined();
    expect(loadConfig(['--model', 'a.gguf', '--threads', '3'], { SVC_WORKER_CONTEXT_SIZE: '1024' })).toMatchObject({
      threads: 3,
      contextSize: 1024,
    });
    expect(() => loadConfig(['--model', 'a.gguf'], { SVC_WORKER_CONTEXT_SIZE: '10' })).toThrow(
      /SVC_WORKER_CONTEXT_SIZE must be an integer of at least 64 \(got "10"\)/,
    );
  });

  test('an unknown option names the nearest the worker takes', () => {
    expect(() => loadConfig(['--model', 'a.gguf', '--thread', '2'], {})).toThrow(
      /^unknown option --thread; did you mean --threads\?\n/,
    );
    expect(() => loadConfig(['--model', 'a.gguf', '--db-hots', 'x'], {})).toThrow(
      /^unknown option --db-hots; did you mean --db-host\?\n/,
    );
    expect(() => loadConfig(['--model', 'a.gguf', '--zzz'], {})).toThrow(/^unknown option --zzz\n/);
  });
});

describe("the worker's session settings", () => {
  test("search_path: pg_catalog, then svc's schema as quoted, a space or backslash kept by a backslash", () => {
    const session = workerSession('"svc home\\x"');
    expect(session).toContain(String.raw`-c search_path=pg_catalog,"svc\ home\\x"`);
    expect(session).toContain('-c lock_timeout=5s -c statement_timeout=60s');
    expect(workerSession()).toContain('-c search_path=pg_catalog');
    expect(workerSession()).not.toContain('search_path=pg_catalog,');
  });
});
