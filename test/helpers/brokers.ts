/**
 * Consumers of the event stream, for the tests that publish to the real brokers: each test
 * makes its own JetStream stream or RabbitMQ exchange (and queue), named at random, and
 * deletes them when it ends. Each keeps every message received, in the order received.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { closeSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { connect } from '@nats-io/transport-node'
import { jetstream, jetstreamManager } from '@nats-io/jetstream'
import amqp from 'amqplib'
import type { Test } from 'tap'
import { NATS_URL, natsServerProgram, RABBITMQ_URL, rabbitMqServerProgram } from './services.ts'
import { tryConnect } from './process.ts'
import { until } from './until.ts'
import { freePort } from '../../scripts/lib/free-port.ts'

export interface Received {
  /** `Nats-Msg-Id`, or the AMQP `message-id`. */
  id: string
  /** The NATS subject, or the AMQP routing key. */
  subject: string
  headers: Record<string, string>
  body: string
}

export interface Consumer {
  messages: Received[]
  /** The messages without those whose id came before: what a consumer that dedups keeps. */
  unique: () => Received[]
}

/** `messages` without those whose id came before: what a consumer that dedups keeps. */
export const dedup = (messages: readonly Received[]) => {
  const seen = new Set<string>()
  return messages.filter((message) => !seen.has(message.id) && seen.add(message.id))
}

/** A name no other test uses. */
export const uniqueName = (prefix: string) => `${prefix}${randomBytes(5).toString('hex')}`

/**
 * A JetStream stream `stream` for `topic.>`, made by the service (`make: false`, the
 * default) or here, read from its start by an ordered consumer.
 */
export async function jetStreamConsumer (t: Test, { stream, topic, make = false }: { stream: string, topic: string, make?: boolean }): Promise<Consumer & { streamMessages: () => Promise<number> }> {
  const connection = await connect({ servers: NATS_URL })
  const manager = await jetstreamManager(connection)
  t.teardown(async () => {
    await manager.streams.delete(stream).catch(() => {})
    await connection.close()
  })
  if (make) await manager.streams.add({ name: stream, subjects: [`${topic}.>`] })
  const messages: Received[] = []
  // The service makes the stream: read it once it is there.
  const reading = (async () => {
    for (;;) {
      const found = await manager.streams.info(stream).then(() => true, () => false)
      if (found || connection.isClosed()) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    if (connection.isClosed()) return
    const consumer = await jetstream(connection).consumers.get(stream)
    const iterator = await consumer.consume()
    t.teardown(() => iterator.stop())
    for await (const message of iterator) {
      const headers: Record<string, string> = {}
      for (const key of message.headers?.keys() ?? []) headers[key] = message.headers!.get(key)
      messages.push({ id: headers['Nats-Msg-Id']!, subject: message.subject, headers, body: message.string() })
    }
  })()
  reading.catch((error: unknown) => { if (!connection.isClosed()) t.fail(`the JetStream consumer failed: ${String(error)}`) })
  return {
    messages,
    unique: () => dedup(messages),
    streamMessages: async () => (await manager.streams.info(stream)).state.messages
  }
}

function receivedOverAmqp (message: amqp.Message): Received {
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(message.properties.headers ?? {})) headers[key] = String(value)
  return { id: message.properties.messageId as string, subject: message.fields.routingKey, headers, body: message.content.toString() }
}

/**
 * A durable topic exchange `exchange` (made here, so that the queue bound to it gets every
 * message from the first) and an exclusive queue bound to `#`.
 */
export async function rabbitMqConsumer (t: Test, { exchange }: { exchange: string }): Promise<Consumer> {
  const connection = await amqp.connect(RABBITMQ_URL)
  const channel = await connection.createChannel()
  t.teardown(async () => {
    await channel.deleteExchange(exchange).catch(() => {})
    await connection.close().catch(() => {})
  })
  await channel.assertExchange(exchange, 'topic', { durable: true })
  const { queue } = await channel.assertQueue('', { exclusive: true })
  await channel.bindQueue(queue, exchange, '#')
  const messages: Received[] = []
  await channel.consume(queue, (message) => {
    if (message !== null) messages.push(receivedOverAmqp(message))
  }, { noAck: true })
  return { messages, unique: () => dedup(messages) }
}

/** A broker of the test's own, which it may stop and start again: the machine's shared ones it may not. */
export interface OwnBroker {
  url: string
  /** Stops it as a restart does (SIGTERM), until `start()`. */
  stop: () => Promise<void>
  /** Starts it again, on the same port and with the same store. */
  start: () => Promise<void>
}

/** Stops `child` with SIGTERM, as an operator's restart does, and waits until it has exited. */
async function terminate (child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
}

/**
 * A NATS server with JetStream of the test's own, its store in `storeDir`, stopped when the
 * test ends: one a test may stop and start again, which the machine's shared one is not.
 */
export async function natsServer (t: Test, storeDir: string): Promise<OwnBroker> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const stop = () => terminate(child)
  const start = async () => {
    child = spawn(natsServerProgram()!, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' })
    await until(async () => await tryConnect(port, '127.0.0.1') === 'connected', `nats-server on port ${port}`)
  }
  t.teardown(stop)
  await start()
  return { url: `nats://127.0.0.1:${port}`, stop, start }
}

/**
 * A RabbitMQ node of the test's own, everything it keeps in `dir` (its database, its logs,
 * its Erlang cookie), with guest/guest as a new node has; stopped when the test ends. A
 * node takes a few seconds to start.
 */
export async function rabbitMqServer (t: Test, dir: string): Promise<OwnBroker> {
  const [port, distributionPort] = [await freePort(), await freePort()]
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    RABBITMQ_NODENAME: `${uniqueName('petstore-test-')}@localhost`,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distributionPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_FEATURE_FLAGS_FILE: join(dir, 'feature_flags'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_LOGS: join(dir, 'log', 'node.log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
    RABBITMQ_PID_FILE: join(dir, 'node.pid')
  }
  const url = `amqp://guest:guest@127.0.0.1:${port}`
  mkdirSync(dir, { recursive: true })
  let child: ChildProcess | undefined
  const stop = () => terminate(child)
  const start = async () => {
    // What it prints goes to a file in `dir`, for a test that fails to read.
    const output = openSync(join(dir, 'output.log'), 'a')
    // Its folder as its working directory too, where Erlang writes a crash dump.
    child = spawn(rabbitMqServerProgram()!, [], { cwd: dir, env, stdio: ['ignore', output, output] })
    closeSync(output)
    await until(async () => {
      const connection = await amqp.connect(url).catch(() => undefined)
      await connection?.close()
      return connection !== undefined
    }, `a RabbitMQ node on port ${port}`, 60_000)
  }
  t.teardown(stop)
  await start()
  return { url, stop, start }
}

/**
 * A durable queue bound to every message of the durable topic exchange `exchange` on the
 * broker at `url` (both made here): unlike an exclusive one, it keeps what it took through
 * a restart of the broker.
 */
export async function durableRabbitMqQueue (url: string, exchange: string): Promise<string> {
  const connection = await amqp.connect(url)
  try {
    const channel = await connection.createChannel()
    await channel.assertExchange(exchange, 'topic', { durable: true })
    const { queue } = await channel.assertQueue(uniqueName('petstore-test-'), { durable: true })
    await channel.bindQueue(queue, exchange, '#')
    return queue
  } finally {
    await connection.close()
  }
}

/** How many messages `queue` holds on the broker at `url`; -1 while it cannot say (the broker down). */
export async function queueMessageCount (url: string, queue: string): Promise<number> {
  const connection = await amqp.connect(url).catch(() => undefined)
  if (connection === undefined) return -1
  try {
    return (await (await connection.createChannel()).checkQueue(queue)).messageCount
  } catch {
    return -1
  } finally {
    await connection.close().catch(() => {})
  }
}

/** What `queue` holds on the broker at `url`, taken from it in its order, as `Received` messages. */
export async function drainRabbitMqQueue (url: string, queue: string): Promise<Received[]> {
  const connection = await amqp.connect(url)
  try {
    const channel = await connection.createChannel()
    const messages: Received[] = []
    for (let message = await channel.get(queue, { noAck: true }); message !== false; message = await channel.get(queue, { noAck: true })) {
      messages.push(receivedOverAmqp(message))
    }
    return messages
  } finally {
    await connection.close()
  }
}

/** How many messages the JetStream stream `stream` holds, on a connection of its own; -1 while it cannot say. */
export async function streamMessageCount (url: string, stream: string): Promise<number> {
  const connection = await connect({ servers: url, reconnect: false }).catch(() => undefined)
  if (connection === undefined) return -1
  try {
    return (await (await jetstreamManager(connection)).streams.info(stream)).state.messages
  } catch {
    return -1
  } finally {
    await connection.close()
  }
}

/** The `Nats-Msg-Id` of each of the first `count` messages of the JetStream stream `stream`, in its order. */
export async function streamMessageIds (url: string, stream: string, count: number): Promise<string[]> {
  const connection = await connect({ servers: url })
  try {
    const consumer = await jetstream(connection).consumers.get(stream)
    const ids: string[] = []
    while (ids.length < count) {
      const batch = await consumer.fetch({ max_messages: count - ids.length, expires: 2000 })
      for await (const message of batch) ids.push(message.headers!.get('Nats-Msg-Id'))
    }
    return ids
  } finally {
    await connection.close()
  }
}
