/**
 * `npm run fuzz -- [--runs 20000] [--seed N]`: the schema-driven fuzz suite
 * (test/fuzz/*.test.ts), long and with a random seed unless one is given. The seed is
 * printed first; a failure prints the seed and path that replay it.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20000' }, seed: { type: 'string' } } })
const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31))
console.log(`fuzzing with FUZZ_SEED=${seed} FUZZ_RUNS=${values.runs}`)
// Found, not listed: a fuzz file added to test/fuzz/ runs too.
const files = readdirSync(new URL('../test/fuzz/', import.meta.url)).filter((name) => name.endsWith('.test.ts')).sort()
for (const file of files) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `test/fuzz/${file}`], {
    cwd: new URL('..', import.meta.url),
    // TAP_TIMEOUT=0: a long run takes as long as it takes.
    env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: values.runs, TAP_TIMEOUT: '0' },
    stdio: 'inherit'
  })
  if (result.status !== 0) process.exitCode = result.status ?? 1
}
