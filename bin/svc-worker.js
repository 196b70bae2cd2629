#!/usr/bin/env node
// The `svc-worker` command. In a clone it runs the TypeScript sources through tsx, so there is no build
// step to forget; installed from the package (which ships dist/lib, compiled by `npm run build`, and
// no worker/ sources), the compiled worker.
import { existsSync } from 'node:fs';

const source = new URL('../worker/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import('../dist/lib/worker/main.js');
}
