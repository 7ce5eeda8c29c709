/**
 * Overload protection (@fastify/under-pressure): when the event loop lags or the heap is
 * too full, requests are refused at once with 503 `unavailable` and `Retry-After`, instead
 * of queueing up and growing latency without bound. `/healthz` is exempt: an overloaded
 * process is still alive, and restarting it would only shed its work.
 */
import underPressure from '@fastify/under-pressure'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { PressureSettings } from '../config/settings.ts'

export default fp(async function pressure (app: FastifyInstance, options: PressureSettings) {
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    maxEventLoopUtilization: options.maxEventLoopUtilization,
    maxHeapUsedBytes: options.maxHeapUsedBytes,
    retryAfter: options.retryAfterSeconds,
    sampleInterval: options.sampleIntervalMs
  })
}, { name: 'pressure', dependencies: ['errors'] })
