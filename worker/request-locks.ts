// The locks that wake waiting calls without polling (src/queue/locks.ts REQUEST_LOCK): the
// worker claims over a connection of its own, and the claim's statement takes an advisory lock on each
// request it claims, before the claim commits; each is let go as the request's result commits (the
// completion's statement goes over this connection: complete()), or once a failure has committed or
// the worker lets the request go (unlock()). A call waiting for a running request waits on its lock,
// and wakes as the answer lands. Session locks belong to a connection, so claims, completions and
// unlocks go over the same one; when it is lost, its locks go with it (the callers wake, read the
// state again and poll until the next claim), and the next claim opens another.
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

  /**
   * protocol.completeCached over the locks' connection, letting go in its transaction of the locks
   * held once on those requests: their callers wake as the outcomes commit, where a statement of its
   * own after the commit cost each sync call a round trip and a turn of the worker's event loop (#55).
   * A lock held twice (a request claimed again while its first run is written) goes by unlock().
   */
  async complete(completions: Parameters<typeof protocol.completeCached>[1]): Promise<Set<string>> {
    const client = this.client;
    // `held` is empty while no connection is open (drop() clears it).
    const release = completions.map((c) => c.job.request_id).filter((id) => this.held.get(id) === 1);
    for (const id of release) this.held.delete(id);
    try {
      return await protocol.completeCached(await this.connection(), completions, release);
    } catch (error) {
      // Not let go, the statement having failed: held still, unless the connection (and its locks) went.
      if (this.client === client) for (const id of release) this.held.set(id, (this.held.get(id) ?? 0) + 1);
      throw error;
    }
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
