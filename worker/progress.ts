// Streaming: a running async generation's text so far, written to svc_partial_results through
// svc_worker_progress for svc_get_partial_result and the svc_progress notification. Writes are
// bounded by time, not tokens: at most one per SVC_WORKER_PROGRESS_INTERVAL (0.5 s) per job however
// fast the model is (a GPU's hundreds of tokens a second would otherwise be hundreds of writes), and
// none for a job that ends sooner. One write at a time per job, each the whole text so far (a reader
// never joins pieces); the newest text wins. A job's last write is settled before its result is
// written (close), so no partial text lands after the completion.
import { errorFields, log } from './log.js';
import { toPgText } from './jobs.js';
import * as protocol from './protocol.js';

type Queryable = Parameters<typeof protocol.progress>[0];

export class ProgressPublisher {
  private text = '';
  private tokens = 0;
  /** Text came since the last write. */
  private dirty = false;
  private last = Date.now();
  private writing?: Promise<void>;
  private timer?: NodeJS.Timeout;
  /** Closed, or refused: this attempt no longer runs the request. */
  private done = false;

  constructor(
    private readonly db: Queryable,
    private readonly job: protocol.ClaimedJob,
    private readonly intervalMs: number,
  ) {}

  /** The engine's onText: a piece of the output at whole characters, and the tokens so far. */
  readonly onText = (piece: string, tokens: number): void => {
    this.text += piece;
    this.tokens = tokens;
    this.dirty = true;
    this.schedule();
  };

  /** Stops writing; resolves once the write in flight (if any) is settled. */
  async close(): Promise<void> {
    this.done = true;
    clearTimeout(this.timer);
    await this.writing;
  }

  private schedule(): void {
    if (this.done || !this.dirty || this.writing || this.timer) return;
    const wait = this.last + this.intervalMs - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait);
      return;
    }
    this.dirty = false;
    this.last = Date.now();
    // NUL becomes U+FFFD as in the stored result (jobs.ts), character for character: the partial text stays a prefix of it.
    this.writing = protocol
      .progress(this.db, this.job, toPgText(this.text), this.tokens)
      .then(
        (stored) => {
          if (!stored) this.done = true;
        },
        (error: unknown) =>
          log('warn', 'could not write partial text', { requestId: this.job.request_id, ...errorFields(error) }),
      )
      .finally(() => {
        this.writing = undefined;
        this.schedule();
      });
  }
}

/** The functions whose jobs publish their text as it comes. */
export const STREAMED: ReadonlySet<string> = new Set([
  'generate',
  'generate_json',
  'generate_regex',
  'generate_choice',
]);
