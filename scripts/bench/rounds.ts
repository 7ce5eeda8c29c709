/**
 * Ratios between two servers' runs of one scenario, round by round: each round measures
 * both, so a ratio within a round cancels the noise that lasts longer than the round. And
 * how the benchmark writes a figure. Nothing here starts or pins a process, so a unit test
 * can import it.
 */
import type { Result } from './measure.ts'

/** A figure to `digits` places; a dash where there is none (a run with no answer). */
export const fixed = (value: number, digits = 0) => Number.isFinite(value) ? value.toFixed(digits) : '–'

/** The ratio of `a`'s rate to `b`'s within each round. */
export const roundRatios = (a: readonly Result[], b: readonly Result[]) => a.map((run, round) => run.rps / b[round]!.rps)

/**
 * Each round's own ratio, in the order the rounds ran, `1.88, 2.01, 1.95×`: whether a goal
 * was met in every round, and how far a median near it may be from it by noise alone.
 */
export const eachRound = (a: readonly Result[], b: readonly Result[]) => `${roundRatios(a, b).map((ratio) => fixed(ratio, 2)).join(', ')}×`
