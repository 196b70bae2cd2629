#!/usr/bin/env node
// The `svc-worker` command. Runs the TypeScript sources through tsx so there is no build step to forget.
import { register } from 'tsx/esm/api';
register();
await import('../worker/main.ts');
