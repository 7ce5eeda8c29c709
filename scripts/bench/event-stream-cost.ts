/**
 * What an event stream costs the creates, and how fast their events reach the broker: the
 * creates measured on a service publishing to NATS JetStream beside the same service without
 * a stream (each on a database of its own); then the lag from each event's commit (its
 * `ce-time`) to its arrival at a subscriber of the stream's subjects, p50 and p99, at a
 * steady rate of creates. On SQLite, then on PostgreSQL. Then what each create cost each
 * server's CPU, beside what publishing costs the NATS client alone on the same core
 * (./nats-publish-alone.ts): the share of the difference the client takes. Needs NATS with
 * JetStream (`BENCH_NATS_URL`, default nats://127.0.0.1:4222); its streams are deleted
 * afterwards.
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node'
import { jetstreamManager } from '@nats-io/jetstream'
import { cell, compare, fixed, printRounds, eachRound, times } from './compare.ts'
import { cpuSeconds } from '../lib/proc-stat.ts'
import { openAdmin, servicePgDatabase } from './postgres.ts'
import { eventStreamRow } from './rows.ts'
import { BUILT_SERVER, headers, newPet, seconds, SERVER_CORES, serviceDatabase, start, stop } from './run.ts'
import { percentile, steadyPosts } from './webhooks.ts'
import type { ServerProcess } from '../lib/spawn-server.ts'

/** The steady create rate at which the publish lag is measured. */
const STEADY_RATE = 500
const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222'

export async function eventStreamRows (): Promise<void> {
  console.log(`\n| writes, their events published to NATS JetStream | creates/s, streamed | creates/s, none | streamed / none | lag p50 / p99 ms at ${STEADY_RATE} creates/s | goal |`)
  console.log('|---|---|---|---|---|---|')
  let nats: NatsConnection
  try {
    nats = await connect({ servers: NATS_URL, timeout: 2000 })
  } catch (error) {
    console.log(`\nEvent stream rows skipped: NATS does not answer at ${NATS_URL} (${(error as Error).message})`)
    return
  }
  const roundLines: string[] = []
  const cpuLines: string[] = []
  try {
    await measure(nats, '', { streamed: await serviceDatabase('stream-streamed', 0), none: await serviceDatabase('stream-none', 0) }, roundLines, cpuLines)
    const why = await openAdmin()
    if (why === undefined) {
      await measure(nats, ' on PostgreSQL', { streamed: (await servicePgDatabase('stream_streamed')).url, none: (await servicePgDatabase('stream_none')).url }, roundLines, cpuLines)
    } else {
      console.log(`\nPostgreSQL rows of the event stream skipped: ${why}`)
    }
  } finally {
    await nats.close()
  }
  printRounds(roundLines)
  const alone = publishingAlone()
  console.log(`\nthe service's CPU time per create (user and system), streamed / none: ${cpuLines.join('; ')}. ` +
    `Publishing alone, in a process of its own on the same core: ${fixed(alone.through, 1)} µs a message through the service's destination, ` +
    `${fixed(alone.bare, 1)} µs with the client's bare publish and no headers`)
}

/** CPU microseconds a message takes the NATS client alone: through the service's destination, and bare. */
function publishingAlone (): { through: number, bare: number } {
  const command = [process.execPath, '--import', 'tsx', 'scripts/bench/nats-publish-alone.ts', NATS_URL, String(seconds)]
  const pinnedTo = SERVER_CORES === undefined ? [] : ['taskset', '-c', SERVER_CORES]
  const [file, ...args] = [...pinnedTo, ...command]
  const printed = execFileSync(file!, args, { encoding: 'utf8' })
  return JSON.parse(printed.trim().split('\n').at(-1)!)
}

async function measure (nats: NatsConnection, suffix: string, urls: Record<'streamed' | 'none', string>, roundLines: string[], cpuLines: string[]): Promise<void> {
  const name = `BENCH_${randomBytes(4).toString('hex')}`
  const topic = `bench.${name.toLowerCase()}`
  const manager = await jetstreamManager(nats)
  // What the stream holds, for waiting until a run's events are all published: read from
  // the server, since a subscriber here would take the load generator's core during the runs.
  const stored = async () => (await manager.streams.info(name).catch(() => undefined))?.state.messages ?? 0
  const servers: Record<'streamed' | 'none', ServerProcess> = {
    streamed: await start(BUILT_SERVER, { DATABASE_URL: urls.streamed, EVENT_STREAM_URL: NATS_URL, EVENT_STREAM_NAME: name, EVENT_STREAM_TOPIC: topic }),
    none: await start(BUILT_SERVER, { DATABASE_URL: urls.none })
  }
  let subscription: Subscription | undefined
  try {
    // Each run starts once the events of the one before are published, as a backlog
    // published during the other server's run would take its core.
    const cpuBefore = { streamed: cpuSeconds(servers.streamed.child.pid!), none: cpuSeconds(servers.none.child.pid!) }
    const sent = { streamed: 0, none: 0 }
    const runs = await compare(servers, { ...eventStreamRow, name: `${eventStreamRow.name}${suffix}` }, ['streamed', 'none'], undefined,
      (server, run) => { sent[server as 'streamed' | 'none'] += run.requests }, async () => { await quiet(stored) })
    await quiet(stored)
    // Each server's CPU over its runs, warm-ups included (and, streamed, the publishing of
    // their events), per create sent.
    const perCreate = (server: 'streamed' | 'none') => (cpuSeconds(servers[server].child.pid!) - cpuBefore[server]) * 1e6 / sent[server]
    cpuLines.push(`${fixed(perCreate('streamed'))} / ${fixed(perCreate('none'))} µs${suffix === '' ? ' on SQLite' : suffix}`)
    // The lag of each message: from its event's commit to its arrival here, a subscriber of
    // the subjects the stream takes (JetStream stores a message before it is delivered).
    const lags: number[] = []
    let arrived = 0
    subscription = nats.subscribe(`${topic}.>`, {
      callback: (_error, message) => {
        arrived++
        const time = message.headers?.get('ce-time')
        if (time !== undefined) lags.push(Date.now() - Date.parse(time))
      }
    })
    await nats.flush()
    const paced = await steadyPosts(servers.streamed.base, '/v1/pets', newPet, headers, STEADY_RATE, seconds)
    if (paced.failed > 0) throw new Error(`${paced.failed} of the steady creates failed`)
    const deadline = Date.now() + 60_000
    while (arrived < paced.sent && Date.now() < deadline) await sleep(50)
    const published = lags.length < paced.sent ? ` (${lags.length} of ${paced.sent} within a minute)` : ''
    console.log(`| ${eventStreamRow.name}${suffix} | ${cell(runs.streamed)} | ${cell(runs.none)} | ${times(runs.streamed!, runs.none)} | ` +
      `${fixed(percentile(lags, 0.5))} / ${fixed(percentile(lags, 0.99))}${published} | ${eventStreamRow.goal ?? ''} |`)
    roundLines.push(`${eventStreamRow.name}${suffix} ${eachRound(runs.streamed!, runs.none!)} none`)
  } finally {
    subscription?.unsubscribe()
    for (const server of Object.values(servers)) await stop(server)
    await manager.streams.delete(name).catch(() => {})
  }
}

/** Resolves once `count` has not moved for a second. */
async function quiet (count: () => Promise<number>): Promise<void> {
  for (let last = -1, now = await count(); now !== last; now = await count()) {
    last = now
    await sleep(1000)
  }
}
