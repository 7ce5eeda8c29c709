/**
 * The brokers' client libraries, loaded only when a destination is opened. With `require`,
 * not `import()`: the bundle `npm start` runs is compiled as a script with a code cache
 * (scripts/bundle.ts), where Node has no loader for a dynamic `import()` of a package.
 * Both are CommonJS packages.
 */
import { createRequire } from 'node:module'

const requireFromHere = createRequire(import.meta.url)

export const natsClient = () => requireFromHere('@nats-io/transport-node') as typeof import('@nats-io/transport-node')
export const jetStreamClient = () => requireFromHere('@nats-io/jetstream') as typeof import('@nats-io/jetstream')
export const amqpClient = () => requireFromHere('amqplib') as typeof import('amqplib')
