// Stop strings (#56): the scanner on bytes (a stop string split across pieces, a character split
// across pieces, held back while it may still start one, under a grammar only where the text before is
// complete), and the engine on the test model, whose vocabulary spells every non-ASCII character with
// byte tokens, so a stop string of one is always split across tokens.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { StopScanner, cutAtStop, grammarComplete, stopMessage, stopProblem } from '../../src/decode/stop.js';
import { compileRegex } from '../../src/grammar/index.js';
import { makeTestModel } from '../../src/model/test-model.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** Feeds `pieces` one by one; returns what was handed on per piece, the rest at the end, and the output. */
function run(stops: string[], pieces: Uint8Array[], accepts?: (before: Uint8Array) => boolean) {
  const scanner = new StopScanner(stops, accepts);
  const handed = pieces.map((piece) => text(scanner.push(piece)));
  return { handed, rest: text(scanner.end()), output: text(scanner.output()), stopped: scanner.stopped };
}

describe('StopScanner', () => {
  test('a stop string across pieces ends the output before it; what may start one is held back until settled', () => {
    const r = run(['girl'], [bytes(', a little g'), bytes('ir'), bytes('l named')]);
    expect(r).toEqual({ handed: [', a little ', '', ''], rest: '', output: ', a little ', stopped: true });
    // A start that turns out to be none is handed on once the next piece settles it.
    const s = run(['girl'], [bytes('a g'), bytes('ift')]);
    expect(s).toEqual({ handed: ['a ', 'gift'], rest: '', output: 'a gift', stopped: false });
    // At the end, what was held back is the output's.
    expect(run(['girl'], [bytes('a gi')])).toEqual({ handed: ['a '], rest: 'gi', output: 'a gi', stopped: false });
  });

  test('the first stop string to be complete wins, whatever their order in the list and however the bytes come', () => {
    expect(run(['named', 'Lily'], [bytes('a girl named Lily')]).output).toBe('a girl ');
    expect(run(['Lily', 'named'], [bytes('a girl named Lily')]).output).toBe('a girl ');
    // 'bc' is complete before 'abcd', which starts earlier: the same cut whole, byte by byte or in two pieces.
    expect(run(['abcd', 'bc'], [bytes('xabcd')]).output).toBe('xa');
    expect(
      run(
        ['abcd', 'bc'],
        [...bytes('xabcd')].map((b) => new Uint8Array([b])),
      ).output,
    ).toBe('xa');
    expect(run(['abcd', 'bc'], [bytes('xab'), bytes('cd')]).output).toBe('xa');
    // Ending at the same byte, the longer one (it starts first).
    expect(run(['bcd', 'cd'], [bytes('abcde')]).output).toBe('a');
  });

  test('a multi-byte character split across pieces: in the stop string, and before it', () => {
    const e = bytes('é'); // C3 A9
    // The stop string's character split across two pieces.
    expect(
      run(['é!'], [bytes('caf'), e.subarray(0, 1), new Uint8Array([...e.subarray(1), ...bytes('! yes')])]),
    ).toMatchObject({
      output: 'caf',
      stopped: true,
    });
    // A character before the stop string split across pieces is handed on whole, once complete.
    const scanner = new StopScanner(['.']);
    const decoder = new TextDecoder();
    const out = [e.subarray(0, 1), e.subarray(1), bytes('t. more')].map((p) =>
      decoder.decode(scanner.push(p), { stream: true }),
    );
    expect(out).toEqual(['', 'é', 't']);
    expect(text(scanner.output())).toBe('ét');
  });

  test('under a grammar an occurrence ends the output only where the bytes before it are complete', () => {
    const complete = grammarComplete(compileRegex('[a-z ]{6,20}').gbnf);
    expect(run([' '], [bytes('ab cdef gh ij')], complete)).toMatchObject({ output: 'ab cdef', stopped: true });
    expect(run([' '], [bytes('ab cd')], complete)).toMatchObject({ output: 'ab cd', stopped: false });
    expect(cutAtStop('ab cdef gh', [' '], complete)).toEqual({ text: 'ab cdef', stopped: true });
    expect(cutAtStop('ab cdef gh', ['zz'])).toEqual({ text: 'ab cdef gh', stopped: false });
  });

  test('the rules every surface words alike', () => {
    expect(stopProblem(['a', 'b'], 'stop', 1)).toBeUndefined();
    expect(stopMessage(stopProblem(['a', ''], 'stop', 1)!)).toBe('stop[2] must not be empty');
    expect(stopMessage(stopProblem(['a', ''], 'stop', 0)!)).toBe('stop[1] must not be empty');
    expect(stopProblem(Array(17).fill('s'), 'stop', 0)).toEqual({
      subject: 'stop',
      rule: 'must have at most 16 strings (got 17)',
      overLimit: true,
    });
    expect(stopProblem(['x'.repeat(1001)], 'stop', 0)).toMatchObject({ subject: 'stop[0]', overLimit: true });
    expect(stopMessage(stopProblem([3], 'stop', 0)!)).toBe('stop[0] must be a string');
  });
});

describe('the engine on the test model (non-ASCII characters are byte tokens)', () => {
  let dir: string;
  let engine: Engine;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-stop-'));
    writeFileSync(join(dir, 'test.gguf'), makeTestModel());
    engine = await Engine.load({ model: join(dir, 'test.gguf'), threads: 1, sequences: 1, contextSize: 512 });
  });
  afterAll(async () => {
    await engine?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a stop string of a character spelled by several byte tokens ends the output before it; the streamed pieces are the output', async () => {
    let found: { prompt: string; full: string; char: string } | undefined;
    for (const prompt of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const full = (await engine.generate({ prompt, maxTokens: 200, seed: 42 })).text;
      const char = [...full].find((c, i) => i > 0 && c !== '\uFFFD' && new TextEncoder().encode(c).length >= 2);
      if (char) {
        found = { prompt, full, char };
        break;
      }
    }
    expect(found).toBeDefined();
    const { prompt, full, char } = found!;
    const pieces: string[] = [];
    const out = await engine.generate({
      prompt,
      maxTokens: 200,
      seed: 42,
      stop: [char],
      onText: (t) => pieces.push(t),
    });
    expect(out.text).toBe(full.slice(0, full.indexOf(char)));
    expect(out.stopReason).toBe('stopString');
    expect(pieces.join('')).toBe(out.text);
    expect(out.tokens).toBeLessThan(200);
  });

  test('under a grammar a stop string ends the output only where it is complete, greedy or sampled', async () => {
    const gbnf = compileRegex('[a-z ]{8,30}').gbnf;
    const full = (await engine.generate({ prompt: 'x', maxTokens: 40, seed: 42, grammar: gbnf })).text;
    const pieces: string[] = [];
    const out = await engine.generate({
      prompt: 'x',
      maxTokens: 40,
      seed: 42,
      grammar: gbnf,
      stop: [' '],
      onText: (t) => pieces.push(t),
    });
    expect(out.text).toMatch(/^[a-z ]{8,30}$/);
    expect(pieces.join('')).toBe(out.text);
    if (full.indexOf(' ', 8) >= 0)
      expect(out).toMatchObject({ text: full.slice(0, full.indexOf(' ', 8)), stopReason: 'stopString' });
    else expect(out.text).toBe(full);
    // Sampled too: every output complete.
    for (const seed of [1, 2, 3, 4]) {
      const s = await engine.generate({
        prompt: 'x',
        maxTokens: 40,
        seed,
        grammar: gbnf,
        stop: [' ', 'q'],
        sampling: { temperature: 2, topK: 0, topP: 1, minP: 0 },
      });
      expect(s.text).toMatch(/^[a-z ]{8,30}$/);
      expect(s.text.slice(8)).not.toMatch(/[ q]/);
    }
  });
});
