/**
 * What one subscribed endpoint costs the creates, and how fast their events reach it: the
 * creates measured on a service with an endpoint subscribed to every event, delivering to a
 * fast receiver in this process, beside the same service without one (each on a database
 * of its own); the deliveries a second during the subscribed runs; then the lag from each
 * event's commit to its receipt, p50 and p99, at a steady rate of creates, once the backlog
 * of the runs is delivered. On SQLite, then on PostgreSQL.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { cell, compare, fixed, printRounds, eachRound, times } from './compare.ts'
import { median } from './measure.ts'
import { openAdmin, servicePgDatabase } from './postgres.ts'
import { webhookRow } from './rows.ts'
import { BUILT_SERVER, headers, newPet, seconds, serviceDatabase, start, stop } from './run.ts'
import { setupFetch } from './setup-fetch.ts'
import { percentile, startBenchReceiver, steadyPosts, type BenchReceiver } from './webhooks.ts'
import type { ServerProcess } from '../lib/spawn-server.ts'

/** The steady create rate at which the delivery lag is measured. */
const STEADY_RATE = 500

export async function webhookRows (): Promise<void> {
  console.log(`\n| writes, their events delivered to one webhook endpoint | creates/s, subscribed | creates/s, none | subscribed / none | deliveries/s (a run's events, its start to the last received) | lag p50 / p99 ms at ${STEADY_RATE} creates/s | goal |`)
  console.log('|---|---|---|---|---|---|---|')
  const roundLines: string[] = []
  await measureWebhooks('', { subscribed: await serviceDatabase('webhooks-subscribed', 0), none: await serviceDatabase('webhooks-none', 0) }, roundLines)
  const why = await openAdmin()
  if (why !== undefined) {
    printRounds(roundLines)
    console.log(`\nPostgreSQL rows of the webhooks skipped: ${why}`)
    return
  }
  const urls = { subscribed: (await servicePgDatabase('webhooks_subscribed')).url, none: (await servicePgDatabase('webhooks_none')).url }
  await measureWebhooks(' on PostgreSQL', urls, roundLines)
  printRounds(roundLines)
}

async function measureWebhooks (suffix: string, urls: Record<'subscribed' | 'none', string>, roundLines: string[]): Promise<void> {
  const receiver = await startBenchReceiver()
  const env = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }
  const servers: Record<'subscribed' | 'none', ServerProcess> = {
    subscribed: await start(BUILT_SERVER, { DATABASE_URL: urls.subscribed, ...env }),
    none: await start(BUILT_SERVER, { DATABASE_URL: urls.none, ...env })
  }
  const subscribed = servers.subscribed.base
  const added = await setupFetch(`${subscribed}/v1/webhook-endpoints`, {
    method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url, events: ['*'] })
  })
  if (added.status !== 201) throw new Error(`could not subscribe the receiver: ${added.status} ${await added.text()}`)
  // Each run starts once the deliveries of the one before are made: a backlog delivered
  // during the other server's run would take its core. The deliveries a second of a run
  // count from its start to the last delivery of its events.
  let began = 0
  let countAtStart = 0
  let measuring = false
  const deliveryRates: number[] = []
  const settle = async () => {
    await drained(receiver)
    if (measuring) deliveryRates.push((receiver.count - countAtStart) * 1000 / (receiver.received.at(-1)!.at - began))
    measuring = false
  }
  const runs = await compare(servers, { ...webhookRow, name: `${webhookRow.name}${suffix}` }, ['subscribed', 'none'], undefined,
    (name) => { measuring = name === 'subscribed' },
    async (name) => {
      await settle()
      began = Date.now()
      countAtStart = receiver.count
    })
  await settle()
  const before = receiver.count
  const paced = await steadyPosts(subscribed, '/v1/pets', newPet, headers, STEADY_RATE, seconds)
  if (paced.failed > 0) throw new Error(`${paced.failed} of the steady creates failed`)
  const deadline = Date.now() + 60_000
  while (receiver.count < before + paced.sent && Date.now() < deadline) await sleep(50)
  const lags = receiver.received.slice(before).map((delivery) => delivery.lagMs)
  const delivered = lags.length < paced.sent ? ` (${lags.length} of ${paced.sent} delivered within a minute)` : ''
  console.log(`| ${webhookRow.name}${suffix} | ${cell(runs.subscribed)} | ${cell(runs.none)} | ${times(runs.subscribed!, runs.none)} | ${fixed(median(deliveryRates.slice(1)))} | ` +
    `${fixed(percentile(lags, 0.5))} / ${fixed(percentile(lags, 0.99))}${delivered} | ${webhookRow.goal ?? ''} |`)
  roundLines.push(`${webhookRow.name}${suffix} ${eachRound(runs.subscribed!, runs.none!)} none`)
  for (const server of Object.values(servers)) await stop(server)
  await receiver.close()
}

/** Resolves once the receiver has had nothing new for a second. */
async function drained (receiver: BenchReceiver): Promise<void> {
  for (let last = -1; receiver.count !== last;) {
    last = receiver.count
    await sleep(1000)
  }
}
