/**
 * What events cost the writes that make them (`--before`): a create (`pet.created`) and an
 * order placed (`order.placed` and its pet's `pet.updated`), each measured beside the same
 * request to the service as it was before events, on SQLite and on PostgreSQL, each server
 * on a database of its own holding the same pets, all available.
 */
import { join } from 'node:path'
import { cell, compare, times, type Row } from './compare.ts'
import { createPgDatabase, openAdmin, servicePgDatabase } from './postgres.ts'
import { BUILT_SERVER, benchDir, newPet, rounds, seconds, serviceDatabase, start, startBefore, stop } from './run.ts'
import { seedPets, seedPostgresPets } from './seed.ts'
import type { ServerProcess } from '../lib/spawn-server.ts'

/**
 * Pets seeded available for the orders: one a request, never one twice on a server (each
 * has a database of its own), enough for 25 000 orders a second over every run of the row.
 */
const ORDERABLE = Math.ceil((rounds * seconds + Math.min(1, seconds)) * 25_000)
const ordered: Record<string, number> = {}
let ordering = ''
function orderNext (): string {
  ordered[ordering] = (ordered[ordering] ?? 0) + 1
  return JSON.stringify({ petId: ordered[ordering] })
}
const costRows = (suffix: string): Row[] => [
  { name: `POST /v1/pets${suffix}`, method: 'POST', path: () => '/v1/pets', body: newPet, peers: [], goal: '≥ 0.8× before' },
  { name: `POST /v1/store/orders${suffix}, a pet each`, method: 'POST', path: () => '/v1/store/orders', body: orderNext, peers: [], goal: '≥ 0.8× before' }
]

export async function eventCost (): Promise<void> {
  const servers: Partial<Record<'service' | 'before', ServerProcess>> = {}
  const measureBoth = async (rows: Row[]) => {
    for (const row of rows) {
      for (const name of Object.keys(ordered)) delete ordered[name]
      const runs = await compare(servers, row, ['service', 'before'], undefined, undefined, (name) => { ordering = name })
      console.log(`| ${row.name} | ${cell(runs.service)} | ${cell(runs.before)} | ${times(runs.service!, runs.before)} | ${row.goal ?? ''} |`)
    }
    for (const server of Object.values(servers)) await stop(server!)
  }
  console.log('\n| write, with its events, beside the service before events | service req/s | before req/s | service / before | goal |')
  console.log('|---|---|---|---|---|')
  const files = { service: await serviceDatabase('cost-service', 0), before: join(benchDir(), 'cost-before.db') }
  seedPets(files.service, ORDERABLE, { available: true })
  servers.service = await start(BUILT_SERVER, { DATABASE_URL: files.service })
  servers.before = await startBefore(files.before, () => seedPets(files.before, ORDERABLE, { available: true }))
  await measureBoth(costRows(''))

  const why = await openAdmin()
  if (why !== undefined) {
    console.log(`\nPostgreSQL rows of the events' cost skipped: ${why}`)
    return
  }
  const serviceDb = await servicePgDatabase('cost_service')
  const beforeDb = await createPgDatabase('cost_before')
  await seedPostgresPets(serviceDb.url, ORDERABLE, { available: true })
  servers.service = await start(BUILT_SERVER, { DATABASE_URL: serviceDb.url })
  servers.before = await startBefore(beforeDb.url, async () => seedPostgresPets(beforeDb.url, ORDERABLE, { available: true }))
  await measureBoth(costRows(' on PostgreSQL'))
}
