/**
 * Graceful shutdown through close-with-grace, with one change: the signal that began the
 * shutdown, arriving again, is ignored instead of ending the process with 1.
 *
 * `npm start` passes SIGTERM and SIGINT on to the service and waits for it
 * (@npmcli/run-script's signal-manager), so a signal sent to the whole process group (a
 * terminal's Ctrl-C, a service manager that signals the group) reaches the service twice,
 * a few milliseconds apart: once directly and once through npm. close-with-grace takes any
 * second signal as "stop now" and exits 1, cutting off the requests it was draining.
 * A different signal still ends the process at once, and SHUTDOWN_GRACE_MS still bounds
 * the drain.
 */
import closeWithGrace from 'close-with-grace'
import type { FastifyBaseLogger } from 'fastify'

/** The signals npm passes on to the script it runs. */
const PASSED_ON = ['SIGTERM', 'SIGINT'] as const

export function closeGracefully (delayMs: number, log: FastifyBaseLogger, close: () => Promise<void>): void {
  let closing = false
  let startedBy: NodeJS.Signals | undefined
  // close-with-grace keeps handling the other signals, errors and a natural exit.
  const grace = closeWithGrace({ delay: delayMs, skip: [...PASSED_ON] }, async ({ signal, err }) => {
    closing = true
    startedBy ??= signal
    if (err !== undefined) log.error({ err }, 'shutting down after an error')
    else log.info({ signal: startedBy }, 'shutting down')
    await close()
  })
  for (const signal of PASSED_ON) {
    process.on(signal, () => {
      if (!closing) {
        startedBy = signal
        grace.close()
      } else if (signal === startedBy) {
        log.info({ signal }, 'already shutting down')
      } else {
        log.error({ signal }, `${signal} while shutting down, exiting`)
        process.exit(1)
      }
    })
  }
}
