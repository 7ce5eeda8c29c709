/**
 * Calls of one turn run together: one run for all of them, never a wait for more; a batch
 * that fails runs again one input at a time, so a bad input fails alone.
 */
import t from 'tap'
import { batchPerTurn, MOST_PER_BATCH } from '../../src/database/batch-per-turn.ts'

/** A run that doubles numbers, refuses negative ones (and so their whole batch), and records each batch. */
function doubling () {
  const batches: number[][] = []
  const run = batchPerTurn(async (inputs: number[]) => {
    batches.push(inputs)
    if (inputs.some((input) => input < 0)) throw new Error(`refused: ${inputs.join(',')}`)
    return inputs.map((input) => input * 2)
  })
  return { run, batches }
}

t.test('the calls of one turn share one run, each with its own answer', async (t) => {
  const { run, batches } = doubling()
  t.same(await Promise.all([run(1), run(2), run(3)]), [2, 4, 6])
  t.same(batches, [[1, 2, 3]])
})

t.test('a lone call runs at the end of its turn, not after waiting for others', async (t) => {
  const { run, batches } = doubling()
  const answer = run(5)
  await new Promise((resolve) => setImmediate(resolve))
  t.same(batches, [[5]], 'run by the next turn')
  t.equal(await answer, 10)
  t.equal(await run(6), 12, 'and the next call is a batch of its own')
  t.same(batches, [[5], [6]])
})

t.test('a failing batch runs again one input at a time: the bad one fails alone', async (t) => {
  const { run, batches } = doubling()
  const outcomes = await Promise.allSettled([run(1), run(-1), run(3)])
  t.match(outcomes, [
    { status: 'fulfilled', value: 2 },
    { status: 'rejected', reason: { message: 'refused: -1' } },
    { status: 'fulfilled', value: 6 }
  ])
  t.same(batches, [[1, -1, 3], [1], [-1], [3]])
  await t.rejects(run(-2), { message: 'refused: -2' }, 'a lone call that fails runs once')
})

t.test('more calls in a turn than one batch takes run in several', async (t) => {
  const { run, batches } = doubling()
  const inputs = Array.from({ length: MOST_PER_BATCH * 2 + 1 }, (_, i) => i)
  t.same(await Promise.all(inputs.map(run)), inputs.map((input) => input * 2))
  t.same(batches.map((batch) => batch.length), [MOST_PER_BATCH, MOST_PER_BATCH, 1])
})
