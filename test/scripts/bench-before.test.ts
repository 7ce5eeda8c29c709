/**
 * `npm run bench -- --before DIR`: the creates, with their events, beside the same creates
 * on another checkout of the service. Here DIR is this checkout itself, which is enough to
 * see every row measured against it; PostgreSQL is pointed at a port nothing listens on,
 * so those rows say they were skipped (bench-postgres.test.ts runs PostgreSQL rows). The
 * figures mean nothing at this size and are not looked at.
 */
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { runScript, scriptResult } from '../helpers/process.ts'
import { tiny, TINY_ENV } from './bench-options.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

t.test('the events\' cost rows run against the checkout --before names', { timeout: 300_000 }, async (t) => {
  const { stdout } = await runScript('scripts/bench.ts', [...tiny(0.05), '--only', 'POST /v1/pets with an Idempotency-Key', '--before', root],
    { ...TINY_ENV, TEST_POSTGRES_URL: 'postgres://postgres@127.0.0.1:1/postgres' })
  t.match(stdout, '\n| write, with its events, beside the service before events | service req/s | before req/s | service / before | goal |\n')
  for (const name of ['POST /v1/pets', 'POST /v1/store/orders, a pet each']) {
    t.match(stdout, new RegExp(`\\n\\| ${name.replace(/[/]/g, '\\/')} \\| \\d+ \\| \\d+ \\| [\\d.]+× \\| ≥ 0\\.8× before \\|\\n`), name)
  }
  t.match(stdout, /\nPostgreSQL rows of the events' cost skipped: PostgreSQL does not answer at /)
})

t.test('--only "npm start" --before: the start measured beside the checkout\'s, alternated, and no other row of the service', { timeout: 300_000 }, async (t) => {
  const { stdout } = await runScript('scripts/bench.ts', [...tiny(0.05), '--starts', '2', '--only', 'npm start', '--before', root],
    { ...TINY_ENV, TEST_POSTGRES_URL: 'postgres://postgres@127.0.0.1:1/postgres' })
  t.match(stdout, '\n| start, beside the build before | service | before | service / before |\n')
  t.match(stdout, /\n\| `npm start` to the first 200, 300 pets, one core \| [\d.]+ s \(runs: [\d.]+, [\d.]+\) \| [\d.]+ s \(runs: [\d.]+, [\d.]+\) \| [\d.]+× \|\n/)
  t.notMatch(stdout, '| scenario |', 'no scenario of the service\'s table')
})

t.test('a --before without a build there stops the benchmark, saying so', async (t) => {
  const failed = await scriptResult('scripts/bench.ts', [...tiny(0.05), '--before', '/nonexistent'], TINY_ENV)
  t.equal(failed.code, 1)
  t.match(failed.stderr, '--before /nonexistent: no build there (dist/server.js): run npm ci in it')
  t.equal(failed.stdout, '', 'nothing measured')
})
