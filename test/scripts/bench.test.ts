/**
 * `npm run bench` works, end to end, on a tiny size: every row and measure is printed.
 * Its figures mean nothing at this size and are not looked at (no timing is asserted).
 * Here with no PostgreSQL to reach, so it says it skipped those rows; bench-postgres.test.ts
 * runs them on their own (`--only "on PostgreSQL"`). Two files, so that neither nears the
 * per-file time limit on a busy machine.
 */
import t from 'tap'
import { runScript } from '../helpers/process.ts'
import { NATS_URL, natsSkipReason } from '../helpers/services.ts'
import { tiny, TINY_ENV } from './bench-options.ts'

t.test('the benchmark runs and reports every row', { timeout: 300_000 }, async (t) => {
  // A port nothing listens on: the PostgreSQL rows are the other file's.
  const { stdout } = await runScript('scripts/bench.ts', tiny(0.05), { ...TINY_ENV, TEST_POSTGRES_URL: 'postgres://postgres@127.0.0.1:1/postgres', BENCH_NATS_URL: NATS_URL })
  for (const row of [
    'GET /v1/pets?limit=20 |', 'GET /v1/pets?limit=100&status=sold |', 'GET /v1/pets/{id} |', 'POST /v1/pets |',
    'POST /v1/pets with an Idempotency-Key |', 'GET /v1/store/orders?limit=20 |', 'POST /v1/store/orders, the pet on order (409) |', 'revalidated (304)',
    'PATCH /v1/pets/{id}, a new name |', 'GET /v1/store/orders/{id} |', 'PATCH /v1/store/orders/{id}, a new ship date |', 'GET /v1/events?limit=100 |', 'GET /v1/pets?limit=20 with a scoped database key |',
    'p99 latency of the read scenarios', 'peak RSS under the `GET /v1/pets?limit=20` load', 'peak RSS after every scenario, writes included', '`npm start` to the first 200', 'every read at 300 pets vs at 50'
  ]) t.match(stdout, row, row)
  t.match(stdout, /\nthe disk under the bench's folder: a page appended, then fsync: p50 [\d.]+ \/ p99 [\d.]+ ms \(200 times\)\n/, 'the disk\'s fsync time, first')
  t.match(stdout, /\| GET \/v1\/pets\?limit=20 \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \| [\d.]+× \| [\d.]+× \| [\d.]+× \|/, 'the listing against every peer')
  t.match(stdout, /\| mixed: 60% GET \/v1\/pets\/\{id\}, 20% GET \/v1\/pets\?status=, 20% POST \/v1\/pets \| \d+ \| \d+ \| \d+ \| \d+ \| {2}\| [\d.]+× \| [\d.]+× \| {2}\| \d+ \/ \d+ \|/, 'the mix against its peers, with its p50 and p99')
  for (const variant of ['(nothing: the service)', 'no log line', 'no per-key limit', 'neither']) {
    t.match(stdout, new RegExp(`\\| ${variant.replace(/[()]/g, '\\$&')} \\| \\d+ \\| [\\d.]+× \\|`), `the listing's cost, the service without: ${variant}`)
  }
  t.match(stdout, /\nthe rounds' own ratios, round by round, for the goals: GET \/v1\/pets\?limit=20 [\d.]+(?:, [\d.]+)*× express; GET \/v1\/pets\?limit=20 [\d.]+(?:, [\d.]+)*× the ceiling; /,
    'each round\'s ratio, for each goal')
  t.match(stdout, /mixed: 60% GET \/v1\/pets\/\{id\}, 20% GET \/v1\/pets\?status=, 20% POST \/v1\/pets [\d.]+(?:, [\d.]+)*× express/, 'the mix\'s among them')
  t.match(stdout, /\nthe rounds' own ratios, round by round, for the goals: GET \/v1\/pets\?limit=20 [\d.]+(?:, [\d.]+)*×; GET \/v1\/pets\?limit=100&status=sold [\d.]+(?:, [\d.]+)*×; /, 'the scaling rows\'')
  t.match(stdout, /\nthe rounds' own ratios, round by round, for the goals: POST \/v1\/pets with one subscribed webhook endpoint [\d.]+(?:, [\d.]+)*× none\n/, 'the webhook row\'s')
  t.match(stdout, /\nload generator CPU during GET \/v1\/pets\?limit=20 .*: \d+% against the service, \d+% against the ceiling/, 'the load generator\'s CPU beside the ceiling')
  t.match(stdout, /\nPostgreSQL rows skipped: PostgreSQL does not answer at /, 'the PostgreSQL rows, skipped, say why')
  t.match(stdout, /\| POST \/v1\/pets with one subscribed webhook endpoint \| \d+ \| \d+ \| [\d.]+× \| \d+ \| \d+ \/ \d+ \|/, 'the webhook row: the creates beside those without, the deliveries a second, the lag')
  t.match(stdout, /\nPostgreSQL rows of the webhooks skipped: PostgreSQL does not answer at /)
  for (const row of ['GET /v1/pets?limit=20 with tracing', 'POST /v1/pets with tracing']) {
    t.match(stdout, new RegExp(`\\| ${row.replace(/[?/]/g, '\\$&')} \\| \\d+ \\| \\d+ \\| [\\d.]+× \\| \\d+ / \\d+ \\|`), `${row}: off, on, and on beside off`)
  }
  t.match(stdout, /\nthe rounds' own ratios, round by round, for the goals: GET \/v1\/pets\?limit=20 with tracing [\d.]+(?:, [\d.]+)*× off; POST \/v1\/pets with tracing [\d.]+(?:, [\d.]+)*× off\n/, 'the tracing rows\'')
  if (await natsSkipReason() === false) {
    t.match(stdout, /\| POST \/v1\/pets with an event stream \| \d+ \| \d+ \| [\d.]+× \| \d+ \/ \d+ \|/, 'the event stream row: the creates beside those without, the lag')
    t.match(stdout, /\nthe service's CPU time per create \(user and system\), streamed \/ none: \d+ \/ \d+ µs on SQLite\. Publishing alone, in a process of its own on the same core: [\d.]+ µs a message through the service's destination, [\d.]+ µs with the client's bare publish and no headers\n/,
      'what each create cost the servers\' CPU, beside what publishing alone costs the client')
  } else {
    t.match(stdout, /\nEvent stream rows skipped: NATS does not answer at /, 'the event stream rows, skipped, say why')
  }
})
