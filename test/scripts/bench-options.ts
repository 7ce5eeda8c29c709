/** The benchmark's options for a run this small, shared by bench.test.ts and bench-postgres.test.ts. */
export const TINY = ['--seconds', '0.05', '--rounds', '1', '--connections', '2', '--pets', '100', '--small', '50', '--large', '300', '--starts', '1', '--unpinned']
