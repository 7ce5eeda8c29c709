/**
 * `npm run bench` works, end to end, on a tiny size: every row and measure is printed.
 * Its figures mean nothing at this size and are not looked at (no timing is asserted).
 * The PostgreSQL rows run where a PostgreSQL answers (see ../helpers/services.ts); without
 * one the benchmark says it skipped them, and with PETSTORE_REQUIRE_SERVICES=1 this fails.
 */
import t from 'tap'
import { runScript } from '../helpers/process.ts'
import { postgresSkipReason } from '../helpers/services.ts'

// Ten servers (three of them only for the listing's costs), a timed start, and two more
// servers on PostgreSQL, on a machine busy with the other test files.
t.test('the benchmark runs and reports every row', { timeout: 300_000 }, async (t) => {
  const postgres = await postgresSkipReason()
  const { stdout } = await runScript('scripts/bench.ts', [
    '--seconds', '0.2', '--rounds', '1', '--connections', '2', '--pets', '100', '--small', '50', '--large', '300', '--starts', '1', '--unpinned'
  ], {})
  for (const row of [
    'GET /v1/pets?limit=20 |', 'GET /v1/pets?limit=100&status=sold |', 'GET /v1/pets/{id} |', 'POST /v1/pets |',
    'POST /v1/pets with an Idempotency-Key |', 'GET /v1/store/orders?limit=20 |', 'POST /v1/store/orders, the pet on order (409) |', 'revalidated (304)',
    'PATCH /v1/pets/{id}, a new name |', 'GET /v1/store/orders/{id} |', 'PATCH /v1/store/orders/{id}, a new ship date |', 'GET /v1/pets?limit=20 with a scoped database key |',
    'p99 latency of the read scenarios', 'peak RSS under the `GET /v1/pets?limit=20` load', 'peak RSS after every scenario, writes included', '`npm start` to the first 200', 'every read at 300 pets vs at 50'
  ]) t.match(stdout, row, row)
  t.match(stdout, /\| GET \/v1\/pets\?limit=20 \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \| [\d.]+× \| [\d.]+× \| [\d.]+× \|/, 'the listing against every peer')
  for (const variant of ['(nothing: the service)', 'no log line', 'no per-key limit', 'neither']) {
    t.match(stdout, new RegExp(`\\| ${variant.replace(/[()]/g, '\\$&')} \\| \\d+ \\| [\\d.]+× \\|`), `the listing's cost, the service without: ${variant}`)
  }
  t.match(stdout, /\nload generator CPU during GET \/v1\/pets\?limit=20 .*: \d+% against the service, \d+% against the ceiling/, 'the load generator\'s CPU beside the ceiling')

  if (postgres !== false) {
    t.match(stdout, /\nPostgreSQL rows skipped: PostgreSQL does not answer at /, 'the PostgreSQL rows, skipped, say why')
    return
  }
  t.match(stdout, /\nPostgreSQL \d+\S* .*\n\n\| scenario \| service req\/s \| express-pg \|/, 'the PostgreSQL table')
  for (const name of ['GET /v1/pets?limit=20', 'GET /v1/pets?limit=100&status=sold', 'GET /v1/pets/{id}', 'POST /v1/pets']) {
    // Rates, the ratio, latencies, then transactions and round trips per request for each server.
    const row = new RegExp(`\\| ${name.replace(/[?{}]/g, '\\$&')} on PostgreSQL \\| \\d+ \\| \\d+ \\| [\\d.]+× \\| [\\d.]+ / [\\d.]+ \\| [\\d.]+ \\| [\\d.]+ / [\\d.]+ \\| [\\d.]+ / [\\d.]+ \\| ≥`)
    t.match(stdout, row, `${name} on PostgreSQL against express-pg`)
  }
})
