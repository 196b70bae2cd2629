// The worker's LISTEN connection: a submission's notification wakes the claim loop at once, and a
// svc_cancel one names a job to let go. Reconnects with backoff; the poll covers the gaps.
import pg from 'pg';
import { errorFields, log } from './log.js';
import * as protocol from './protocol.js';
import { workerSession } from './setup.js';
import { sleep } from './sleep.js';

/** What the worker does with a notification. */
export interface Notified {
  /** A submission was announced (or may have been, while the connection was away). */
  work(): void;
  /** svc_cancel named this request. */
  cancel(requestId: string): void;
}

export class WorkListener {
  private client?: pg.Client;

  constructor(
    private readonly db: pg.ClientConfig,
    /** Whether the worker is stopping: the connection is then not opened again. */
    private readonly stopping: () => boolean,
    private readonly notified: Notified,
  ) {}

  /** Keeps a LISTEN connection open, reconnecting with backoff, until the worker stops. */
  async run(): Promise<void> {
    for (let failures = 0; !this.stopping();) {
      const client = new pg.Client({ options: workerSession(), ...this.db });
      try {
        await client.connect();
        const closed = new Promise<void>((resolve) => {
          client.on('error', (error) => {
            log('warn', 'listen connection lost', errorFields(error));
            resolve();
          });
          client.on('end', () => resolve());
        });
        client.on('notification', (n) => {
          if (n.channel !== protocol.CANCEL_CHANNEL) this.notified.work();
          else if (n.payload) this.notified.cancel(n.payload);
        });
        await client.query(`LISTEN ${protocol.WAKEUP_CHANNEL}; LISTEN ${protocol.CANCEL_CHANNEL}`);
        this.client = client;
        failures = 0;
        this.notified.work(); // anything enqueued while we were away
        await closed;
      } catch (error) {
        log('warn', 'listen connection failed', errorFields(error));
      }
      await client.end().catch(() => undefined);
      if (!this.stopping()) await sleep(Math.min(100 * 2 ** ++failures, 5000));
    }
  }

  /** Closes the connection (the worker has stopped), without waiting for it. */
  close(): void {
    void this.client?.end().catch(() => undefined);
  }
}
