// `$ref` resolution: a local reference (a JSON pointer, `#`, or an `$anchor`) to the schema it
// names, once per reference. The schema is the 2020-12 rewrite (drafts.ts), whose `$ref`s were
// already rewritten where the pointer ran through what moved.

import { ConstraintError, pointerChild } from './errors.js';

type SchemaObject = { [keyword: string]: unknown };

export interface RefTarget {
  /** The raw schema (an object or a boolean). */
  readonly schema: unknown;
  /** Its JSON pointer, which names its rule and its errors. */
  readonly pointer: string;
}

const isObject = (value: unknown): value is SchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class RefResolver {
  private readonly resolved = new Map<string, RefTarget>();

  constructor(
    private readonly root: unknown,
    private readonly maxDepth: number,
  ) {}

  /** The target of a reference written at `pointer`; unresolved-ref when it names nothing here. */
  resolve(reference: string, pointer: string): RefTarget {
    let target = this.resolved.get(reference);
    if (!target) {
      target = this.locate(reference, pointer);
      this.resolved.set(reference, target);
    }
    return target;
  }

  private locate(reference: string, pointer: string): RefTarget {
    let fragment = reference;
    const rootId =
      isObject(this.root) && typeof this.root.$id === 'string' ? this.root.$id.replace(/#$/, '') : undefined;
    if (rootId && fragment.startsWith(rootId)) fragment = fragment.slice(rootId.length);
    if (!fragment.startsWith('#')) {
      throw new ConstraintError('unresolved-ref', `$ref '${reference}' is not local to this schema`, {
        pointer,
        keyword: '$ref',
      });
    }
    let body: string;
    try {
      body = decodeURIComponent(fragment.slice(1));
    } catch {
      // URIError: a `%` not followed by two hex digits, or bytes that are not UTF-8.
      throw new ConstraintError(
        'unresolved-ref',
        `$ref '${reference}' is not a valid URI fragment (bad percent-encoding)`,
        { pointer, keyword: '$ref' },
      );
    }
    if (body !== '' && !body.startsWith('/')) return this.anchor(body, reference, pointer);
    let target: unknown = this.root;
    const tokens =
      body === ''
        ? []
        : body
            .split('/')
            .slice(1)
            .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    for (const token of tokens) {
      if (Array.isArray(target) && /^(0|[1-9][0-9]*)$/.test(token)) target = target[Number(token)];
      else if (isObject(target) && Object.prototype.hasOwnProperty.call(target, token)) target = target[token];
      else target = undefined;
      if (target === undefined) break;
    }
    if (target === undefined || !(typeof target === 'boolean' || isObject(target))) {
      throw new ConstraintError('unresolved-ref', `$ref '${reference}' points to nothing`, {
        pointer,
        keyword: '$ref',
      });
    }
    return { schema: target, pointer: body };
  }

  private anchor(anchor: string, reference: string, pointer: string): RefTarget {
    const seen = new Set<unknown>();
    const search = (node: unknown, at: string, depth: number): RefTarget | undefined => {
      if (depth > this.maxDepth || !isObject(node) || seen.has(node)) return undefined;
      seen.add(node);
      if (node.$anchor === anchor || node.$id === '#' + anchor) return { schema: node, pointer: at };
      for (const [key, value] of Object.entries(node)) {
        if (!isObject(value) && !Array.isArray(value)) continue;
        if (isObject(value) && (key === 'enum' || key === 'const' || key === 'default' || key === 'examples')) continue;
        const direct = search(value, pointerChild(at, key), depth + 1);
        if (direct) return direct;
        const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
        for (const [k, v] of entries) {
          const found = search(v, pointerChild(pointerChild(at, key), k), depth + 2);
          if (found) return found;
        }
      }
      return undefined;
    };
    const found = search(this.root, '', 0);
    if (!found)
      throw new ConstraintError('unresolved-ref', `$ref '${reference}' names no $anchor`, { pointer, keyword: '$ref' });
    return found;
  }
}
