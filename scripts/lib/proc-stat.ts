/**
 * What Linux's /proc says of a process: its parent, group, CPU time and memory. Shared by
 * the benchmark and the soak run, which measure servers they started, and by the tests that
 * follow a process tree.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** The kernel's clock ticks a second, the unit of a process's CPU times in /proc. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }))

/**
 * The fields of /proc/PID/stat after the process's name, which may hold spaces: its state
 * first, its parent 1 later, its process group 2 later, utime and stime 11 and 12 later, and
 * its ended children's cutime and cstime 13 and 14 later.
 */
export function statFields (pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}

/** The seconds of CPU time two of a process's `statFields` hold, from `first` (11: its own; 13: its ended children's). */
export const secondsAt = (fields: readonly string[], first: 11 | 13) => (Number(fields[first]) + Number(fields[first + 1])) / TICKS

/** CPU time a process has used so far, user and system, in seconds. */
export function cpuSeconds (pid: number): number {
  return secondsAt(statFields(pid), 11)
}

/** A memory figure of /proc/PID/status, in MiB. */
function statusMib (pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match === null ? Number.NaN : Number(match[1]) / 1024
}

/** Resident memory of a process now, in MiB. */
export const rss = (pid: number) => statusMib(pid, 'VmRSS')
/** Peak resident memory of a process (VmHWM), in MiB. */
export const peakRss = (pid: number) => statusMib(pid, 'VmHWM')
