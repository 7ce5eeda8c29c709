/**
 * The service's one batching mechanism, by its rules: calls run at once when nothing else
 * runs (PostgreSQL's creates and reads); those that come meanwhile run together, at the end
 * of their turn, never waiting for more; a batch that fails runs again one input at a time,
 * so a bad input fails alone; batches one at a time take what came meanwhile (the
 * dispatcher's outcomes). SQLite's group commit is tested in group-commit.test.ts.
 */
import t from 'tap'
import { batchPerTurn, eachAlone, MOST_PER_BATCH } from '../../src/database/batch-per-turn.ts'

/** A run that doubles numbers, refuses negative ones (and so their whole batch), and records each batch. */
function doubling () {
  const batches: number[][] = []
  const double = async (inputs: number[]) => {
    batches.push(inputs)
    if (inputs.includes(0)) throw new Error('unavailable')
    if (inputs.some((input) => input < 0)) throw new Error(`refused: ${inputs.join(',')}`)
    return inputs.map((input) => input * 2)
  }
  const run = batchPerTurn(double, { afterFailure: eachAlone(double, (error) => (error as Error).message !== 'unavailable'), atOnceWhenIdle: true, most: MOST_PER_BATCH })
  return { run, batches }
}

t.test('a call runs at once when nothing runs; the calls that come meanwhile share one run', async (t) => {
  const { run, batches } = doubling()
  const first = run(1)
  t.same(batches, [[1]], 'the first at once, alone: no wait for a batch to fill')
  t.same(await Promise.all([first, run(2), run(3), run(4)]), [2, 4, 6, 8], 'each with its own answer')
  t.same(batches, [[1], [2, 3, 4]], 'the others together, at the end of their turn')
  t.equal(await run(5), 10)
  t.same(batches.at(-1), [5], 'once all ended, a call runs at once again')
})

t.test('a failing batch runs again one input at a time: the bad one fails alone', async (t) => {
  const { run, batches } = doubling()
  const outcomes = await Promise.allSettled([run(1), run(2), run(-1), run(4)])
  t.match(outcomes, [
    { status: 'fulfilled', value: 2 },
    { status: 'fulfilled', value: 4 },
    { status: 'rejected', reason: { message: 'refused: -1' } },
    { status: 'fulfilled', value: 8 }
  ])
  t.same(batches, [[1], [2, -1, 4], [2], [-1], [4]])
  await t.rejects(run(-2), { message: 'refused: -2' }, 'a lone call that fails runs once')
  t.same(batches.at(-1), [-2])
})

t.test('a batch that fails otherwise (a connection lost) fails every call, and never runs again', async (t) => {
  const { run, batches } = doubling()
  const outcomes = await Promise.allSettled([run(1), run(2), run(0), run(4)])
  t.match(outcomes, [
    { status: 'fulfilled', value: 2 },
    { status: 'rejected', reason: { message: 'unavailable' } },
    { status: 'rejected', reason: { message: 'unavailable' } },
    { status: 'rejected', reason: { message: 'unavailable' } }
  ])
  t.same(batches, [[1], [2, 0, 4]], 'it may have committed, its answer lost: not run again')
})

t.test('more calls in a turn than one batch takes run in several', async (t) => {
  const { run, batches } = doubling()
  const inputs = Array.from({ length: MOST_PER_BATCH * 2 + 2 }, (_, i) => i + 1)
  t.same(await Promise.all(inputs.map(run)), inputs.map((input) => input * 2))
  t.same(batches.map((batch) => batch.length), [1, MOST_PER_BATCH, MOST_PER_BATCH, 1])
})

t.test('without atOnceWhenIdle, even a lone call waits for the end of its turn, and its turn\'s calls join it', async (t) => {
  const batches: number[][] = []
  const run = batchPerTurn(async (inputs: number[]) => { batches.push(inputs); return inputs })
  const first = run(1)
  t.same(batches, [], 'not run yet')
  t.same(await Promise.all([first, run(2)]), [1, 2])
  t.same(batches, [[1, 2]])
})

t.test('one at a time: the calls that come while a batch runs make up the next, run as it ends', async (t) => {
  const batches: number[][] = []
  let release = () => {}
  const run = batchPerTurn(async (inputs: number[]) => {
    batches.push(inputs)
    if (batches.length === 1) await new Promise<void>((resolve) => { release = resolve })
    return inputs
  }, { oneAtATime: true, most: 3 })
  const first = Promise.all([run(1), run(2)])
  await new Promise((resolve) => setImmediate(resolve))
  t.same(batches, [[1, 2]], 'the first batch runs')
  const rest = Promise.all([3, 4, 5, 6, 7].map(run))
  await new Promise((resolve) => setImmediate(resolve))
  t.same(batches, [[1, 2]], 'no second batch beside it')
  release()
  t.same(await first, [1, 2])
  t.same(await rest, [3, 4, 5, 6, 7])
  t.same(batches, [[1, 2], [3, 4, 5], [6, 7]], 'then the rest, at most three a batch, one after the other')
})
