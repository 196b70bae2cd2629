#!/usr/bin/env node
// The `svc` command. In a clone it runs the TypeScript sources through tsx, so there is no build step
// to forget; installed from the package (which ships dist/lib, compiled by `npm run build`, and no
// src/), the compiled CLI.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import('../dist/lib/src/cli/main.js');
}
