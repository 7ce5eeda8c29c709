/**
 * The benchmark's options for a run this small, shared by bench.test.ts and
 * bench-postgres.test.ts: `seconds` per measured run. The PostgreSQL rows take longer ones:
 * on a busy machine a twentieth of a second can pass with no answer from a server over
 * PostgreSQL, and a run with no answer has no rate to print.
 */
export const tiny = (seconds: number) =>
  ['--seconds', String(seconds), '--rounds', '1', '--connections', '2', '--pets', '100', '--small', '50', '--large', '300', '--starts', '1', '--unpinned']
