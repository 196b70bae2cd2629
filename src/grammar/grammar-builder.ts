// Collects a grammar's rules as the compilers make them: readable, valid, unique names; one rule per
// distinct body; the characters of the rules that can reach the grammar counted as they are made.

import { ConstraintError } from './errors.js';
import type { Expr, Grammar } from '../automaton/expr.js';
import { MAX_EXPR_DEPTH, exprDepth } from '../automaton/expr.js';
import type { GrammarLimits } from './gbnf-format.js';
import { DEFAULT_LIMITS, checkBodySize, formatRuleBody } from './gbnf-format.js';

/**
 * Collects rules with readable, valid, unique names; structurally identical rule bodies share one
 * rule, which keeps nested `$ref`/`anyOf` schemas linear in size.
 */
export class GrammarBuilder {
  private readonly rules = new Map<string, Expr | null>();
  private readonly byBody = new Map<string, string>();
  private readonly nextSuffix = new Map<string, number>();
  /**
   * Characters of the rules made so far that may reach the grammar: a grammar past the limit is
   * refused before the rest is built. Work a caller discards (a branch that matched nothing, the
   * rest of a schema that enum values were checked against) is taken back out (discard), so only
   * rules that can reach the emitted grammar count: counting every rule made refused a schema whose
   * grammar is 398,458 characters as "more than 1,000,000" (issue #48).
   */
  private chars = 0;
  /** Characters each rule made with rule() adds, and which of them are counted now. */
  private readonly ruleChars = new Map<string, number>();
  private readonly counted = new Set<string>();
  /** Rules in the order they were counted, so that discard() can take back what came after a mark. */
  private readonly countLog: string[] = [];

  constructor(private readonly limits: GrammarLimits = DEFAULT_LIMITS) {
    this.rules.set('root', null);
  }

  /** Reserves a unique rule name (for recursive rules, defined later). */
  reserve(hint: string): string {
    const base = sanitizeRuleName(hint);
    let name = base;
    // Numbering resumes where this base stopped: counting from 2 every time made n rules with one
    // hint (the optional members of a wide object) cost n^2/2 lookups, 1.3 s for 1,500.
    let i = this.nextSuffix.get(base) ?? 2;
    if (this.rules.has(name)) for (; this.rules.has((name = `${base}-${i}`)); i++);
    this.nextSuffix.set(base, name === base ? i : i + 1);
    this.rules.set(name, null);
    return name;
  }

  /** A rule's body, once defined. */
  bodyOf(name: string): Expr | undefined {
    return this.rules.get(name) ?? undefined;
  }

  define(name: string, body: Expr): void {
    checkDepth(body, name);
    this.rules.set(name, body);
  }

  /** A reference to a rule with this body, reusing an existing rule with the same body. */
  rule(hint: string, body: Expr): Expr {
    checkDepth(body, hint);
    // Sizes first: the key below is the body's text, as long as the body's expanded tree.
    checkBodySize(body, this.limits);
    const key = formatRuleBody(body);
    this.spend?.(1 + Math.floor(key.length / 64));
    const existing = this.byBody.get(key);
    if (existing) {
      // A rule made by work that was discarded counts again once something uses it.
      if (!this.counted.has(existing)) this.count(existing);
      return { kind: 'ref', name: existing };
    }
    const name = this.reserve(hint);
    this.define(name, body);
    this.byBody.set(key, name);
    this.ruleChars.set(name, name.length + key.length + 5);
    this.count(name);
    return { kind: 'ref', name };
  }

  /** Counts a rule, and the discarded rules it reaches (they reach the grammar with it). */
  private count(name: string): void {
    const pending = [name];
    let walked = 0;
    while (pending.length) {
      const next = pending.pop()!;
      const chars = this.ruleChars.get(next);
      if (chars === undefined || this.counted.has(next)) continue;
      if (++walked % 16 === 0) this.spend?.(1);
      this.counted.add(next);
      this.countLog.push(next);
      this.chars += chars;
      forEachRef(this.rules.get(next)!, (inner) => pending.push(inner));
    }
    this.checkChars();
  }

  /**
   * Past the limit, refused; inside work that may yet be dropped (open), only past twice the limit,
   * so that what is dropped never refuses a grammar, and otherwise when that work is kept (close).
   */
  private checkChars(): void {
    const limit = this.limits.maxGrammarChars;
    if (this.chars > limit && (this.opened === 0 || this.chars > 2 * limit)) {
      throw new ConstraintError('too-large', `grammar is more than ${limit} characters, the limit`);
    }
  }

  /** Work that may be dropped. */
  private opened = 0;

  /** Starts work the caller may drop; returns the mark to close it with. */
  open(): number {
    this.opened++;
    return this.countLog.length;
  }

  /**
   * Ends work started with open(): kept, or dropped, and then the rules counted since the mark no
   * longer count (they stay defined, and count again when a later rule() of the same body uses one).
   */
  close(mark: number, keep: boolean): void {
    this.opened--;
    if (!keep) {
      while (this.countLog.length > mark) {
        const name = this.countLog.pop()!;
        this.counted.delete(name);
        this.chars -= this.ruleChars.get(name)!;
      }
    }
    this.checkChars();
  }

  /** The grammar with this root, keeping only the rules it reaches. */
  build(rootBody: Expr): Grammar {
    checkDepth(rootBody, 'root');
    this.rules.set('root', rootBody);
    const grammar = this.snapshot(rootBody, true);
    if (!grammar) throw new Error('internal: a reachable rule was reserved but never defined');
    return grammar;
  }

  /**
   * The grammar rooted at `rootBody` if every rule it reaches is defined already, else undefined;
   * its rules in the order they were made when `ordered` (the grammar that is emitted), else in the
   * order they are reached, in time proportional to them alone (enum values are judged by a
   * snapshot of the rest of their schema: walking every rule made so far for each was quadratic).
   */
  snapshot(rootBody: Expr, ordered = false): Grammar | undefined {
    const reached = new Set<string>(['root']);
    const pending: Expr[] = [rootBody];
    while (pending.length) {
      const expr = pending.pop()!;
      forEachRef(expr, (name) => {
        if (reached.has(name)) return;
        reached.add(name);
        const body = this.rules.get(name);
        if (body) pending.push(body);
      });
    }
    this.spend?.(1 + Math.floor(reached.size / 64));
    const rules = new Map<string, Expr>([['root', rootBody]]);
    if (ordered) {
      for (const [name, body] of this.rules) {
        if (name === 'root' || !reached.has(name)) continue;
        if (body === null || body === undefined) return undefined;
        rules.set(name, body);
      }
      for (const name of reached) if (!rules.has(name)) return undefined;
    } else {
      for (const name of reached) {
        if (name === 'root') continue;
        const body = this.rules.get(name);
        if (body === null || body === undefined) return undefined;
        rules.set(name, body);
      }
    }
    return { rules, root: 'root' };
  }

  /** Counts the builder's own work (formatting each rule's body to find its twin) in a compile's work bound. */
  spend?: (units: number) => void;
}

/** Throws too-deep before any recursive pass can overflow the stack on this body. */
export function checkDepth(body: Expr, rule: string): void {
  const depth = exprDepth(body);
  if (depth > MAX_EXPR_DEPTH) {
    throw new ConstraintError(
      'too-deep',
      `grammar rule '${rule}' nests ${depth} levels deep, above the limit of ${MAX_EXPR_DEPTH}`,
    );
  }
}

export function forEachRef(expr: Expr, visit: (name: string) => void): void {
  switch (expr.kind) {
    case 'ref':
      visit(expr.name);
      return;
    case 'seq':
      expr.items.forEach((item) => forEachRef(item, visit));
      return;
    case 'alt':
      expr.options.forEach((option) => forEachRef(option, visit));
      return;
    case 'repeat':
      forEachRef(expr.body, visit);
      return;
    default:
      return;
  }
}

export function sanitizeRuleName(hint: string): string {
  const cleaned = hint
    .replace(/[^a-zA-Z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 48);
  return cleaned === '' || cleaned === 'root' ? 'r' + (cleaned ? '-' + cleaned : '') : cleaned;
}
