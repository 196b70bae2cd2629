// How many jobs the worker holds claimed ahead (worker/claim-ahead.ts): SVC_WORKER_PREFETCH at least,
// about AHEAD_MS of work a slot where jobs are short, never more than MOST_AHEAD, none when 0; the job
// time it goes by errs long.
import { AHEAD_MS, JobTimes, MOST_AHEAD, jobsAhead } from '../../worker/claim-ahead.js';

test('before any job has run: SVC_WORKER_PREFETCH', () => {
  expect(jobsAhead(4, 4, undefined)).toBe(4);
  expect(jobsAhead(0, 4, undefined)).toBe(0);
});

test('long jobs: SVC_WORKER_PREFETCH, the least', () => {
  expect(jobsAhead(4, 4, 2000)).toBe(4);
  expect(jobsAhead(4, 1, AHEAD_MS)).toBe(4);
});

test('short jobs: about AHEAD_MS of work a slot, at most MOST_AHEAD', () => {
  // 4 slots of 10 ms jobs: 20 jobs cover 50 ms a slot.
  expect(jobsAhead(4, 4, 10)).toBe(Math.floor((4 * AHEAD_MS) / 10));
  expect(jobsAhead(4, 1, 5)).toBe(AHEAD_MS / 5);
  expect(jobsAhead(4, 4, 0.01)).toBe(MOST_AHEAD);
  expect(jobsAhead(4, 4, 0)).toBe(MOST_AHEAD);
});

test('SVC_WORKER_PREFETCH=0 claims nothing ahead, however short the jobs', () => {
  expect(jobsAhead(0, 4, 1)).toBe(0);
});

test('a prefetch above what the time rule gives is kept', () => {
  expect(jobsAhead(100, 4, 10)).toBe(100);
});

test('the job time rises at once with a slower job and falls a tenth of the way with each faster one', () => {
  const times = new JobTimes();
  expect(times.estimateMs).toBeUndefined();
  times.ran(10);
  expect(times.estimateMs).toBe(10);
  times.ran(1000);
  expect(times.estimateMs).toBe(1000);
  expect(jobsAhead(4, 4, times.estimateMs)).toBe(4);
  times.ran(0);
  expect(times.estimateMs).toBeCloseTo(900);
  for (let i = 0; i < 100; i++) times.ran(2);
  expect(jobsAhead(4, 4, times.estimateMs)).toBe(MOST_AHEAD);
});
