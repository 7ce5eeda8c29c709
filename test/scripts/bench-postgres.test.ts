/**
 * `npm run bench -- --only "on PostgreSQL"`, on a tiny size: the PostgreSQL rows, each against
 * express-pg, with their transactions, round trips and CPU (theirs, PostgreSQL's and the load
 * generator's) per request. Where a PostgreSQL answers (see ../helpers/services.ts); without
 * one this skips, and with PETSTORE_REQUIRE_SERVICES=1 it fails. The figures mean nothing at
 * this size and are not looked at.
 */
import t from 'tap'
import { runScript } from '../helpers/process.ts'
import { postgresSkipReason } from '../helpers/services.ts'
import { tiny, TINY_ENV } from './bench-options.ts'

const skip = await postgresSkipReason()

t.test('the PostgreSQL rows run on their own and report every measure', { skip, timeout: 300_000 }, async (t) => {
  const { stdout } = await runScript('scripts/bench.ts', [...tiny(0.2), '--only', 'on PostgreSQL'], TINY_ENV)
  t.match(stdout, /\nPostgreSQL \d+\S* .*\n\n\| scenario \| service req\/s \| express-pg \|/, 'the PostgreSQL table')
  // PostgreSQL's own CPU where its processes are this machine's (not a container's).
  const databaseCpu = /all of PostgreSQL's processes/.test(stdout) ? '\\d+' : '–'
  const cpu = `\\d+ \\+ ${databaseCpu} \\+ \\d+`
  for (const name of ['mixed: 60% GET /v1/pets/{id}, 20% GET /v1/pets?status=, 20% POST /v1/pets', 'GET /v1/pets?limit=20', 'GET /v1/pets?limit=100&status=sold', 'GET /v1/pets/{id}', 'GET /v1/pets/{id}, a random pet each time', 'POST /v1/pets']) {
    // Rates, the ratio, latencies, then for each server the transactions and round trips per
    // request, and the CPU a request took it, PostgreSQL and the load generator.
    const row = new RegExp(`\\| ${name.replace(/[?{}]/g, '\\$&')} on PostgreSQL \\| \\d+ \\| \\d+ \\| [\\d.]+× \\| [\\d.]+ / [\\d.]+ \\| [\\d.]+ \\| [\\d.]+ / [\\d.]+ \\| [\\d.]+ / [\\d.]+ \\| ${cpu} \\| ${cpu} \\| ≥`)
    t.match(stdout, row, `${name} on PostgreSQL against express-pg`)
  }
  t.match(stdout, /\nthe rounds' own ratios, round by round, for the goals: mixed: .* on PostgreSQL [\d.]+(?:, [\d.]+)*× express-pg; .*POST \/v1\/pets on PostgreSQL [\d.]+(?:, [\d.]+)*× express-pg\n/,
    'each round\'s ratio, for each goal')
})
