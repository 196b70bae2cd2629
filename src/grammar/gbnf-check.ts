// Checks a grammar before it reaches llama.cpp: every rule defined, no left recursion (llama.cpp
// rejects it), and at least one finite string in the language (else generation could never stop).

import { ConstraintError } from './errors.js';
import type { Expr, Grammar } from './expr.js';
import { isNullable, nullableRules } from './expr.js';
import { forEachRef } from './gbnf-format.js';
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
  // Depth-first search for a cycle in the "can start with" relation.
  const state = new Map<string, 'active' | 'done'>();
  const visit = (name: string, path: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'active') {
      const cycle = path.slice(path.indexOf(name)).concat(name).join(' -> ');
      throw new ConstraintError('invalid-gbnf', `left recursion (${cycle}): the schema refers to itself before producing any character`);
    }
    state.set(name, 'active');
    for (const next of leftmost.get(name) ?? []) visit(next, [...path, name]);
    state.set(name, 'done');
  };
  for (const name of grammar.rules.keys()) visit(name, []);
  if (derivationHeights(grammar).get(grammar.root) === Infinity) {
    throw new ConstraintError('unsatisfiable', 'the grammar has no finite output (unbounded recursion with no way out)');
  }
}
