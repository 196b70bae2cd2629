// Whether the worker can reach its database, and whether it has given up what it holds: every call
// to the database reports here, so that a stop while the database is gone is prompt (worker.ts giveUp)
// instead of waiting on writes that cannot land.
import { isUnreachable } from './setup.js';

export class DatabaseReach {
  /** Whether the last call to the database failed to reach it (isUnreachable). */
  unreachable = false;
  /** Aborts when the worker gives up what it holds (stopping while the database is unreachable). */
  readonly abandon = new AbortController();

  constructor(
    /** Called when a call finds the database unreachable (the worker gives up its jobs if it is stopping). */
    private readonly onUnreachable: () => void,
  ) {}

  /** Whether the worker has given up what it holds. */
  get abandoned(): boolean {
    return this.abandon.signal.aborted;
  }

  /** A call reached the database. */
  reached(): void {
    this.unreachable = false;
  }

  /** A call failed: notes whether the database could not be reached. */
  missed(error: unknown): void {
    this.unreachable = isUnreachable(error); // a statement's error came from a database that is there
    if (this.unreachable) this.onUnreachable();
  }

  /** Settles with `promise`, or with undefined once the worker gives up (abandon). */
  untilAbandoned<T>(promise: Promise<T>): Promise<T | undefined> {
    const signal = this.abandon.signal;
    if (signal.aborted) {
      promise.catch(() => undefined);
      return Promise.resolve(undefined);
    }
    return new Promise<T | undefined>((resolve, reject) => {
      const onAbort = () => resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }
}
