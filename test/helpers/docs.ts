// The examples a document shows, so tests run them as written: the fenced blocks of one language in
// the section under a heading (any level; the section ends at the next heading of that level or above).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export function fencedBlocks(file: string, heading: string, lang: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const match = new RegExp(`^(#+) ${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`, 'm').exec(text);
  if (!match) throw new Error(`${file} has no heading "${heading}"`);
  const start = match.index + match[0].length;
  const next = new RegExp(`^#{1,${match[1].length}} `, 'm').exec(text.slice(start));
  const section = text.slice(start, next ? start + next.index : undefined);
  return [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}
