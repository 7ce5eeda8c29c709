/**
 * Where the JSON log lines go: a file descriptor (standard output), the lines of one turn
 * of the event loop written together once the turn is done, synchronously. A busy server
 * answers many requests in a turn, each with its line: pino's default destination wrote
 * each line as it came, through libuv's thread pool, a large part of a cached read's cost;
 * a turn's lines in one write cost a small part of that
 * (docs/performance.md#the-request-log-line).
 *
 * pino's own destination does the writing, in its synchronous mode: partial writes, a full
 * pipe retried (`EAGAIN`), so a log reader that falls behind slows the server down, as
 * Node's own `process.stdout` does on a pipe, rather than growing its memory without
 * bound, and a reader gone (`EPIPE`) ends the logging, not the server. Lines still waiting
 * are written when the process exits, however it ends (an uncaught error included),
 * except by a signal that kills it outright, as before.
 */
import pino from 'pino'

export class TurnBatchedDestination {
  readonly #out: pino.DestinationStream
  #waiting = ''
  #scheduled = false

  constructor (fd: number) {
    this.#out = pino.destination({ dest: fd, sync: true })
    process.once('exit', this.flushSync)
  }

  /** Called by pino with one whole line. */
  write (line: string): boolean {
    this.#waiting += line
    if (!this.#scheduled) {
      this.#scheduled = true
      setImmediate(this.flushSync)
    }
    return true
  }

  /** Writes the lines waiting, now. */
  readonly flushSync = (): void => {
    this.#scheduled = false
    if (this.#waiting === '') return
    const lines = this.#waiting
    this.#waiting = ''
    this.#out.write(lines)
  }

  /** pino's `logger.flush(callback)`. */
  flush (callback?: (error?: Error) => void): void {
    this.flushSync()
    callback?.()
  }
}
