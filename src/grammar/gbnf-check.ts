// Checks a grammar before it reaches llama.cpp: every rule defined, no left recursion (llama.cpp
// rejects it), and at least one finite string in the language (else generation could never stop).

import { ConstraintError } from './errors.js';
import type { Expr, Grammar } from '../automaton/expr.js';
import { isNullable, nullableRules } from '../automaton/expr.js';
import { checkDepth, forEachRef } from './grammar-builder.js';
import { derivationHeights } from './gbnf-run.js';

/** Rules that can appear first (before any character) in an expression. */
function leftmostRefs(expr: Expr, nullable: ReadonlySet<string>, out: Set<string>): void {
  switch (expr.kind) {
    case 'ref':
      out.add(expr.name);
      return;
    case 'seq':
      for (const item of expr.items) {
        leftmostRefs(item, nullable, out);
        if (!isNullable(item, nullable)) return;
      }
      return;
    case 'alt':
      expr.options.forEach((option) => leftmostRefs(option, nullable, out));
      return;
    case 'repeat':
      leftmostRefs(expr.body, nullable, out);
      return;
    default:
      return;
  }
}

export function checkGrammar(grammar: Grammar): void {
  for (const [name, body] of grammar.rules) checkDepth(body, name);
  for (const body of grammar.rules.values()) {
    forEachRef(body, (name) => {
      if (!grammar.rules.has(name)) throw new ConstraintError('invalid-gbnf', `undefined rule '${name}'`);
    });
  }
  const nullable = nullableRules(grammar);
  const leftmost = new Map<string, Set<string>>();
  for (const [name, body] of grammar.rules) {
    const refs = new Set<string>();
    leftmostRefs(body, nullable, refs);
    leftmost.set(name, refs);
  }
  const cycle = findCycle(grammar.rules.keys(), leftmost);
  if (cycle) {
    throw new ConstraintError(
      'invalid-gbnf',
      `left recursion (${cycle.join(' -> ')}): the schema refers to itself before producing any character`,
    );
  }
  if (derivationHeights(grammar).get(grammar.root) === Infinity) {
    throw new ConstraintError(
      'unsatisfiable',
      'the grammar has no finite output (unbounded recursion with no way out)',
    );
  }
}

/**
 * A cycle in the "can start with" relation, as the rule names along it (first repeated at the end),
 * or undefined. Iterative, with the path kept once: the recursive search copied the path at each
 * step and overflowed the stack on a chain of some thousand rules (a long prefixItems of $refs).
 */
function findCycle(names: Iterable<string>, edges: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const state = new Map<string, 'active' | 'done'>();
  for (const start of names) {
    if (state.has(start)) continue;
    const path: string[] = [start];
    const pending: Iterator<string>[] = [(edges.get(start) ?? new Set<string>()).values()];
    state.set(start, 'active');
    while (path.length) {
      const next = pending[pending.length - 1].next();
      if (next.done) {
        state.set(path.pop()!, 'done');
        pending.pop();
        continue;
      }
      const name = next.value;
      if (state.get(name) === 'active') return path.slice(path.indexOf(name)).concat(name);
      if (state.has(name)) continue;
      state.set(name, 'active');
      path.push(name);
      pending.push((edges.get(name) ?? new Set<string>()).values());
    }
  }
  return undefined;
}
