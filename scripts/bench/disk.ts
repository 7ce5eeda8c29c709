/**
 * The disk's own time to make a write durable: a page appended to a file in the bench's
 * folder, then fsync, as a commit on SQLite does with `synchronous=FULL`. No create on
 * SQLite is answered sooner: the physical floor under the SQLite write rows' latency.
 */
import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { benchDir } from './run.ts'
import { fixed } from './compare.ts'
import { percentile } from './webhooks.ts'

const PAGE = Buffer.alloc(4096, 1)
const SYNCS = 200

/** The fsync times, p50 and p99 in milliseconds, of `SYNCS` pages appended one at a time. */
export function fsyncTimes (): { p50: number, p99: number } {
  const file = join(benchDir(), 'fsync-probe')
  const fd = openSync(file, 'w')
  const times: number[] = []
  try {
    for (let i = 0; i < SYNCS; i++) {
      writeSync(fd, PAGE)
      const start = process.hrtime.bigint()
      fsyncSync(fd)
      times.push(Number(process.hrtime.bigint() - start) / 1e6)
    }
  } finally {
    closeSync(fd)
    rmSync(file, { force: true })
  }
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) }
}

export function fsyncLine (): string {
  const { p50, p99 } = fsyncTimes()
  return `the disk under the bench's folder: a page appended, then fsync: p50 ${fixed(p50, 2)} / p99 ${fixed(p99, 2)} ms (${SYNCS} times)`
}
