/**
 * The benchmark's options for a run this small, shared by bench.test.ts and
 * bench-postgres.test.ts: `seconds` per measured run. The PostgreSQL rows take longer ones:
 * on a busy machine a twentieth of a second often passes with no answer from a server over
 * PostgreSQL, and each such run is measured again, longer (scripts/bench/measure.ts).
 */
export const tiny = (seconds: number) =>
  ['--seconds', String(seconds), '--rounds', '1', '--connections', '2', '--pets', '100', '--small', '50', '--large', '300', '--starts', '1', '--unpinned']

/**
 * The servers' environment for a run this small: overload shedding off, as for every server
 * a test starts (../helpers/process.ts). On a machine busy with other tests, a server's
 * event loop lags past the shedding's threshold, and its 503s would fail the run.
 */
export const TINY_ENV = { MAX_EVENT_LOOP_DELAY_MS: '0' }
