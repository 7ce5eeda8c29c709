/**
 * What tracing costs, on SQLite: the cached listing and a create with tracing off (the
 * default: no OTEL_* variable) and on (every request sampled, its spans sent to an OTLP
 * sink in this process), and, with `--before`, beside the service as it was before
 * tracing existed: what tracing off costs.
 */
import { join } from 'node:path'
import { cell, compare, eachRound, fixed, p, printRounds, times, type Row } from './compare.ts'
import { startOtlpSink } from './otlp-sink.ts'
import { BUILT_SERVER, benchDir, pets, serviceDatabase, start, startBefore, stop, values } from './run.ts'
import { seedPets } from './seed.ts'
import type { ServerProcess } from '../lib/spawn-server.ts'

export async function tracingCost (rows: Row[]): Promise<void> {
  const sink = await startOtlpSink()
  const servers: Partial<Record<'off' | 'on' | 'before', ServerProcess>> = {}
  const names: Array<'off' | 'on' | 'before'> = values.before === undefined ? ['off', 'on'] : ['off', 'on', 'before']
  console.log(`\n| request, tracing off and on | off req/s | on req/s | on / off | ${values.before === undefined ? '' : 'before req/s | off / before | '}p99 off / on ms | goal |`)
  console.log(`|---|---|---|---|${values.before === undefined ? '' : '---|---|'}---|---|`)
  try {
    const files = { off: await serviceDatabase('tracing-off', pets), on: await serviceDatabase('tracing-on', pets), before: join(benchDir(), 'tracing-before.db') }
    servers.off = await start(BUILT_SERVER, { DATABASE_URL: files.off })
    servers.on = await start(BUILT_SERVER, { DATABASE_URL: files.on, OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_SERVICE_NAME: 'petstore-bench' })
    if (values.before !== undefined) servers.before = await startBefore(files.before, () => seedPets(files.before, pets))
    const roundLines: string[] = []
    for (const row of rows) {
      const runs = await compare(servers, row, names)
      roundLines.push(`${row.name} ${eachRound(runs.on!, runs.off!)} off`)
      const before = values.before === undefined ? '' : `${cell(runs.before)} | ${times(runs.off!, runs.before)} | `
      console.log(`| ${row.name} | ${cell(runs.off)} | ${cell(runs.on)} | ${times(runs.on!, runs.off)} | ${before}${fixed(p(runs.off!, 'p99'))} / ${fixed(p(runs.on!, 'p99'))} | ${row.goal ?? ''} |`)
    }
    // Stopped, the traced service sends the spans its batch still holds.
    await stop(servers.on!)
    delete servers.on
    if (sink.exports === 0) throw new Error('the traced service sent no spans')
    printRounds(roundLines)
  } finally {
    for (const server of Object.values(servers)) await stop(server!)
    await sink.close()
  }
}
