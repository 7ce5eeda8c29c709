/**
 * What the behaviours that the ceiling lacks cost the cached listing: the service again with
 * its request log line off (`LOG_LEVEL=warn`), its per-key rate limit off
 * (`RATE_LIMIT_MAX=0`), and both, in the same rounds as the service and the ceiling. With
 * each server saturating its core, a request's time is the inverse of the rate, so a
 * behaviour's share of the service's time is 1 - service / service without it. Started
 * for this alone and stopped after, so they weigh on no other row.
 */
import { cell, compare, fixed, ratio, times, type Row } from './compare.ts'
import { BUILT_SERVER, start, stop } from './run.ts'
import type { ServerProcess } from '../lib/spawn-server.ts'

/** `listing` on `servers` (the service and the ceiling among them) and on the service without each behaviour, its database `file`. */
export async function behaviourCosts (listing: Row, servers: Partial<Record<string, ServerProcess>>, file: string): Promise<void> {
  const without: Record<string, Record<string, string>> = {
    'no log line': { LOG_LEVEL: 'warn' },
    'no per-key limit': { RATE_LIMIT_MAX: '0' },
    neither: { LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '0' }
  }
  const variants: Record<string, ServerProcess> = {}
  for (const [name, env] of Object.entries(without)) variants[name] = await start(BUILT_SERVER, { DATABASE_URL: file, ...env })
  const names = ['service', 'ceiling', ...Object.keys(without)]
  const runs = await compare({ ...servers, ...variants }, listing, names)
  console.log(`\n| ${listing.name}: the service without | req/s | × ceiling | share of the service's time |`)
  console.log('|---|---|---|---|')
  console.log(`| (nothing: the service) | ${cell(runs.service)} | ${times(runs.service!, runs.ceiling)} | |`)
  for (const name of Object.keys(without)) {
    const share = 1 - ratio(runs.service!, runs[name]!)
    console.log(`| ${name} | ${cell(runs[name])} | ${times(runs[name]!, runs.ceiling)} | ${fixed(share * 100)}% |`)
  }
  for (const server of Object.values(variants)) await stop(server)
}
