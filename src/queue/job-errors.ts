// How a job fails for good: the worker fails it at once instead of retrying the same bytes (an
// output that breaks its constraint, a grammar the engine refuses, parameters that do not compile).
// Shared by the worker's job runners (worker/jobs.ts, worker/vectorize.ts).
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}
