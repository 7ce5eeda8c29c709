/**
 * Calls that come together, run together: the one way the service batches its database
 * work (SQLite's group commit, ./group-commit.ts; on PostgreSQL the creates of pets and their
 * reads by id; the dispatcher's delivery outcomes). A batch costs the database about what
 * one call does (one round trip, one plan, one commit and its flush), where each separate
 * call pays them all.
 *
 * A batch closes at the end of the turn of the event loop in which its first call came
 * (never later for a batch to fill): every call of that turn is then run by one `run`, all
 * or nothing. The rules below say what differs between batches: whether a lone caller runs
 * at once, whether a flow of calls waits two turns, whether batches run one at a time, and
 * what happens when a batch of several fails.
 *
 * A call may so run more than once (./README.md): when its batch failed for
 * another call, `afterFailure` runs it again, and only that run is kept. Each call is
 * answered only once its own outcome is known.
 */
import { inCallersContext, inRootContext } from '../tracing/trace-context.ts'

/** One call's outcome. */
export type Settled<O> = { ok: true, value: O } | { ok: false, error: unknown }

export interface BatchRules<I, O> {
  /**
   * After `run` failed with `error` for a batch of several calls: each call's outcome, found
   * another way (each run alone, or each in a savepoint), or undefined when the error is
   * every call's (a connection lost: the batch may even have committed, its answer lost).
   * A lone call's failure is always its own.
   */
  afterFailure?: (inputs: I[], error: unknown) => Promise<Array<Settled<O>>> | undefined
  /** A call that finds no batch running runs at once, alone: a lone client never waits. */
  atOnceWhenIdle?: boolean
  /**
   * While batches flow (one began in this turn or the one before), a batch gathers the calls
   * of two turns: half the batches for as many calls. A call that comes alone still runs at
   * the end of its own turn.
   */
  twoTurnsWhileFlowing?: boolean
  /** Batches run one after the other, each taking the calls that came meanwhile; otherwise side by side. */
  oneAtATime?: boolean
  /** The most calls one run takes; more in one turn are run in several. */
  most?: number
  /**
   * Whose trace a batch runs in: its first caller's, so that its statements are a span of a
   * request (the default), or none, for work that no request caused.
   */
  traced?: boolean
}

interface Pending<I, O> { input: I, resolve: (output: O) => void, reject: (error: unknown) => void }

/** The most inputs one run of PostgreSQL's batches takes. */
export const MOST_PER_BATCH = 100

/** A function that runs each input in a batch of the calls that came with it (`run`, all or nothing, an output per input). */
export function batchPerTurn<I, O> (run: (inputs: I[]) => Promise<O[]>, rules: BatchRules<I, O> = {}): (input: I) => Promise<O> {
  const most = rules.most ?? Number.POSITIVE_INFINITY
  let pending: Array<Pending<I, O>> = []
  /** Batches begun and not yet ended. */
  let running = 0
  let flowing = false

  const flush = () => {
    if (rules.oneAtATime === true) {
      // The batch running takes the calls that came meanwhile when it ends.
      if (running === 0 && pending.length > 0) start(pending.splice(0, most))
      return
    }
    const batch = pending
    pending = []
    for (let i = 0; i < batch.length; i += most) start(batch.slice(i, i + most))
  }
  const start = (batch: Array<Pending<I, O>>) => {
    if (rules.twoTurnsWhileFlowing === true) {
      flowing = true
      // Past the next turn with no call waiting, calls no longer flow.
      setImmediate(() => setImmediate(() => { if (pending.length === 0) flowing = false }))
    }
    // runBatch settles every call of its batch, and never rejects itself.
    runBatch(batch).catch(() => {})
  }

  async function runBatch (batch: Array<Pending<I, O>>): Promise<void> {
    running++
    try {
      settle(batch, await outcomes(batch.map((item) => item.input)))
    } finally {
      running--
      if (rules.oneAtATime === true) flush()
    }
  }

  async function outcomes (inputs: I[]): Promise<Array<Settled<O>>> {
    try {
      return (await run(inputs)).map((value) => ({ ok: true, value }))
    } catch (error) {
      const again = inputs.length > 1 ? rules.afterFailure?.(inputs, error) : undefined
      if (again === undefined) return inputs.map(() => ({ ok: false, error }))
      return await again.catch((error: unknown) => inputs.map(() => ({ ok: false, error })))
    }
  }

  const schedule = rules.traced === false ? () => setImmediate(() => inRootContext(flush)) : () => setImmediate(inCallersContext(flush))
  return (input) => new Promise<O>((resolve, reject) => {
    const item = { input, resolve, reject }
    if (rules.atOnceWhenIdle === true && running === 0) {
      runBatch([item]).catch(() => {})
      return
    }
    if (pending.push(item) !== 1) return
    if (flowing) setImmediate(schedule)
    else schedule()
  })
}

function settle<O> (batch: Array<Pending<unknown, O>>, outcomes: Array<Settled<O>>): void {
  batch.forEach((item, i) => {
    const outcome = outcomes[i]!
    if (outcome.ok) item.resolve(outcome.value)
    else item.reject(outcome.error)
  })
}

/**
 * An `afterFailure` that runs each input again alone, when `retries` says the error may be
 * one input's (a constraint, bad data), and fails them all otherwise.
 */
export function eachAlone<I, O> (run: (inputs: I[]) => Promise<O[]>, retries: (error: unknown) => boolean): NonNullable<BatchRules<I, O>['afterFailure']> {
  return (inputs, error) => retries(error)
    ? Promise.all(inputs.map((input) => run([input]).then((outputs): Settled<O> => ({ ok: true, value: outputs[0]! }), (error: unknown): Settled<O> => ({ ok: false, error }))))
    : undefined
}
