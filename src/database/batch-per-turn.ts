/**
 * Calls that come together, run together. A call runs at once when no run is under way
 * (a lone client never waits); calls that come while one is are kept until the end of
 * their turn of the event loop (never for a batch to fill), and every one of them is then
 * run by one `run`, as one statement. A statement of many rows costs the database about
 * what one of a single row does (one round trip, one plan, one commit and its WAL flush),
 * where each separate statement pays them all.
 *
 * When the batch fails for one of its inputs (`retriesAlone` says which errors may be),
 * each input runs again alone, so one bad input is refused alone and never fails its
 * neighbours; `run` must therefore be all or nothing (one statement is). Any other failure,
 * such as a connection lost, fails every call of the batch, as it would each alone: the
 * batch may even have committed, its answer lost, and must not run again. Each call is
 * answered only once its own run has succeeded or failed.
 */
import { inCallersContext } from '../tracing/trace-context.ts'

interface Pending<I, O> { input: I, resolve: (output: O) => void, reject: (error: unknown) => void }

/** The most inputs one run takes; more in one turn are run in several. */
export const MOST_PER_BATCH = 100

export function batchPerTurn<I, O> (run: (inputs: I[]) => Promise<O[]>, retriesAlone: (error: unknown) => boolean): (input: I) => Promise<O> {
  let pending: Array<Pending<I, O>> = []
  /** Runs begun and not yet ended. */
  let running = 0
  // The batch runs in the context of the call that opened it, so its span, when traced,
  // belongs to a request rather than to none.
  const flush = () => {
    const batch = pending
    pending = []
    // runBatch settles every call of its batch, and never rejects itself.
    for (let i = 0; i < batch.length; i += MOST_PER_BATCH) runBatch(batch.slice(i, i + MOST_PER_BATCH)).catch(() => {})
  }
  async function runBatch (batch: Array<Pending<I, O>>): Promise<void> {
    running++
    try {
      const outputs = await run(batch.map((item) => item.input))
      batch.forEach((item, i) => { item.resolve(outputs[i]!) })
    } catch (error) {
      if (batch.length === 1 || !retriesAlone(error)) {
        for (const item of batch) item.reject(error)
        return
      }
      await Promise.all(batch.map(async (item) => {
        try {
          item.resolve((await run([item.input]))[0]!)
        } catch (error) {
          item.reject(error)
        }
      }))
    } finally {
      running--
    }
  }
  return (input) => new Promise<O>((resolve, reject) => {
    // Nothing running: nothing to share with, so at once.
    if (running === 0) {
      runBatch([{ input, resolve, reject }]).catch(() => {})
      return
    }
    if (pending.push({ input, resolve, reject }) === 1) setImmediate(inCallersContext(flush))
  })
}
