// Edge worker entry (surface C): HTTP routes, the cleanup cron, and the engine Durable Object.
import { cleanupCaches } from './cache.js';
import { handleRequest, metrics } from './router.js';
import type { Env, ExecutionContext } from './types.js';

export { EngineObject } from './engine-object.js';

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    return handleRequest(request, env, ctx);
  },
  // Cron (wrangler.jsonc triggers): drop cache rows not read for 30 days, trim to the SPEC 8
  // entry limits, and flush this isolate's buffered metrics.
  async scheduled(_event: unknown, env: Env, ctx: ExecutionContext): Promise<void> {
    ctx.waitUntil(metrics.flush(env.DB));
    await cleanupCaches(env.DB);
  },
};
