/**
 * The benchmark's ratios round by round (scripts/bench/rounds.ts): each round's own ratio, in
 * the order run, so a goal can be read as met, or not, in every round.
 */
import t from 'tap'
import { eachRound, roundRatios } from '../../scripts/bench/rounds.ts'
import type { Result } from '../../scripts/bench/measure.ts'

const runs = (...rates: number[]): Result[] => rates.map((rps) => ({ rps, p50: 1, p99: 2, requests: rps, loadCpu: 50 }))

t.test('each round\'s ratio is of that round\'s two runs, in the order the rounds ran', async (t) => {
  const service = runs(2000, 3000, 1800)
  const peer = runs(1000, 1000, 1200)
  t.same(roundRatios(service, peer), [2, 3, 1.5])
  t.equal(eachRound(service, peer), '2.00, 3.00, 1.50×', 'not sorted: the second round is the highest')
  t.equal(eachRound(runs(900), runs(1000)), '0.90×', 'one round: its ratio alone')
})

t.test('a round whose peer answered nothing reads as a dash, not Infinity', async (t) => {
  t.equal(eachRound(runs(1000, 1000), runs(0, 500)), '–, 2.00×')
})
