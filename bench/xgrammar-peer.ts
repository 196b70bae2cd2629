// XGrammar (as WebAssembly, @mlc-ai/web-xgrammar) on the same vocabulary and grammars as svc's
// masker, for bench/constrained.ts: its grammar compile (its per-grammar token mask cache) and its
// mask per step, following the tokens svc's constrained run chose.
//
// The package is a UMD bundle in a `"type": "module"` package, so Node's loaders see no exports;
// a copy named .cjs (in .tmp/) is required as the CommonJS module it also is.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface XgrTokenizerInfo {
  dispose(): void;
}
interface XgrCompiled {
  dispose(): void;
}
interface XgrMatcher {
  getNextTokenBitmask(): Promise<Int32Array>;
  acceptToken(token: number): boolean;
  dispose(): void;
}
interface Xgr {
  TokenizerInfo: {
    createTokenizerInfo(
      vocab: readonly string[],
      vocabType: string,
      prependSpace: boolean,
      vocabSize: number,
      stopTokens: number[],
    ): Promise<XgrTokenizerInfo>;
  };
  GrammarCompiler: {
    createGrammarCompiler(
      info: XgrTokenizerInfo,
      cache?: boolean,
    ): Promise<{ compileGrammar(ebnf: string): Promise<XgrCompiled>; dispose(): void }>;
  };
  GrammarMatcher: { createGrammarMatcher(compiled: XgrCompiled): Promise<XgrMatcher> };
}

function loadXgrammar(): Xgr {
  const require = createRequire(import.meta.url);
  const dir = join(process.cwd(), '.tmp');
  mkdirSync(dir, { recursive: true });
  const copy = join(dir, 'web-xgrammar.cjs');
  copyFileSync(require.resolve('@mlc-ai/web-xgrammar'), copy);
  return require(copy) as Xgr;
}

export interface PeerCase {
  /** Compile of the grammar for this vocabulary (ms), or the error that stopped it. */
  compileMs?: number;
  error?: string;
  /** Each step's mask (ms). */
  masks: number[];
}

/** XGrammar on a vocabulary: `vocab` as the model's GGUF spells its tokens, `vocabType` 'byte_level' (GPT-2-style BPE) or 'byte_fallback' (SentencePiece). */
export class XgrammarPeer {
  private constructor(
    private readonly xgr: Xgr,
    private readonly compiler: { compileGrammar(ebnf: string): Promise<XgrCompiled>; dispose(): void },
    /** Building its tokenizer info and compiler (once per vocabulary), ms. */
    readonly setupMs: number,
  ) {}

  static async create(
    vocab: readonly string[],
    vocabType: 'byte_level' | 'byte_fallback',
    stopTokens: number[],
  ): Promise<XgrammarPeer> {
    const xgr = loadXgrammar();
    const start = performance.now();
    const info = await xgr.TokenizerInfo.createTokenizerInfo(vocab, vocabType, false, vocab.length, stopTokens);
    const compiler = await xgr.GrammarCompiler.createGrammarCompiler(info, false);
    return new XgrammarPeer(xgr, compiler, performance.now() - start);
  }

  /** Compiles `gbnf` and times a mask before each of `tokens` (stopping where XGrammar refuses one). */
  async run(gbnf: string, tokens: readonly number[]): Promise<PeerCase> {
    const result: PeerCase = { masks: [] };
    let compiled: XgrCompiled;
    const start = performance.now();
    try {
      compiled = await this.compiler.compileGrammar(gbnf);
    } catch (error) {
      result.error = String((error as Error).message ?? error).slice(0, 160);
      return result;
    }
    result.compileMs = performance.now() - start;
    const matcher = await this.xgr.GrammarMatcher.createGrammarMatcher(compiled);
    try {
      for (const token of tokens) {
        const t = performance.now();
        await matcher.getNextTokenBitmask();
        result.masks.push(performance.now() - t);
        if (!matcher.acceptToken(token)) break;
      }
    } finally {
      matcher.dispose();
      compiled.dispose();
    }
    return result;
  }

  dispose(): void {
    this.compiler.dispose();
  }
}
