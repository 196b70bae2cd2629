// The locks that wake waiting calls without polling (src/queue/locks.ts REQUEST_LOCK): the
// worker claims over a connection of its own, and the claim's statement takes an advisory lock on each
// request it claims, before the claim commits; each is let go once the request's outcome has committed,
// or the worker lets the request go without one. A call waiting for a running request waits on its
// lock, and wakes as the answer lands. Session locks belong to a connection, so claims and unlocks go
// over the same one; when it is lost, its locks go with it (the callers wake, read the state again and
// poll until the next claim), and the next claim opens another.
import pg from 'pg';
import * as protocol from './protocol.js';
import { workerSession } from './setup.js';

export class RequestLocks {
  private client?: Promise<pg.Client>;
  /** Locks the connection holds, by request id (a request claimed again while its first run is still being written is held twice). */
  private readonly held = new Map<string, number>();
  private toUnlock: string[] = [];
  private unlocking = false;

  constructor(private readonly db: pg.ClientConfig) {}

  /** protocol.claim over the locks' connection, taking the lock of each request claimed. */
  async claim(o: protocol.ClaimOptions): Promise<protocol.ClaimedJob[]> {
    const client = await this.connection();
    const jobs = await protocol.claim(client, o, true);
    for (const job of jobs) if (job.locked) this.held.set(job.request_id, (this.held.get(job.request_id) ?? 0) + 1);
    return jobs;
  }

  /** The request's outcome has committed, or the worker let it go: its lock (if held) is let go, with others let go meanwhile in one statement. */
  unlock(requestId: string): void {
    const count = this.held.get(requestId);
    if (count === undefined) return;
    if (count > 1) this.held.set(requestId, count - 1);
    else this.held.delete(requestId);
    this.toUnlock.push(requestId);
    // At the end of this turn of the event loop: the outcomes written by one call are let go together.
    if (!this.unlocking) {
      this.unlocking = true;
      setImmediate(() => void this.unlockQueued());
    }
  }

  private async unlockQueued(): Promise<void> {
    try {
      while (this.toUnlock.length > 0 && this.client) {
        const ids = this.toUnlock;
        this.toUnlock = [];
        const client = this.client;
        await protocol.unlockRequests(await client, ids).catch(() => this.drop(client));
      }
    } finally {
      this.toUnlock = [];
      this.unlocking = false;
    }
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ options: workerSession(), ...this.db });
    const made = client.connect().then(() => client);
    client.on('error', () => this.drop(made));
    client.on('end', () => this.drop(made));
    made.catch(() => this.drop(made));
    this.client = made;
    return made;
  }

  /** The connection is gone or broken: so are the locks it held; the next claim opens another. */
  private drop(which = this.client): void {
    if (which === undefined || which !== this.client) return;
    this.client = undefined;
    this.held.clear();
    void which.then((c) => c.end()).catch(() => undefined);
  }

  /** Closes the connection (its locks go with it). */
  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.held.clear();
    await client?.then((c) => c.end()).catch(() => undefined);
  }
}
