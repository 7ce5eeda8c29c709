/**
 * `npm run bench` works, end to end, on a tiny size: every row and measure is printed.
 * Its figures mean nothing at this size and are not looked at (no timing is asserted).
 */
import t from 'tap'
import { runScript } from '../helpers/process.ts'

// Seven servers and a timed start, on a machine busy with the other test files.
t.test('the benchmark runs and reports every row', { timeout: 300_000 }, async (t) => {
  const { stdout } = await runScript('scripts/bench.ts', [
    '--seconds', '0.2', '--rounds', '1', '--connections', '2', '--pets', '100', '--small', '50', '--large', '300', '--starts', '1', '--unpinned'
  ], {})
  for (const row of [
    'GET /v1/pets?limit=20 |', 'GET /v1/pets?limit=100&status=sold |', 'GET /v1/pets/{id} |', 'POST /v1/pets |',
    'POST /v1/pets with an Idempotency-Key |', 'GET /v1/store/orders?limit=20 |', 'POST /v1/store/orders, the pet on order (409) |', 'revalidated (304)',
    'p99 latency of the read scenarios', 'peak RSS under that load', '`npm start` to the first 200', 'every read at 300 pets vs at 50'
  ]) t.match(stdout, row, row)
  t.match(stdout, /\| GET \/v1\/pets\?limit=20 \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \| [\d.]+× \| [\d.]+× \| [\d.]+× \|/, 'the listing against every peer')
})
