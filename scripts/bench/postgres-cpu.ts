/**
 * The CPU time of a PostgreSQL server on this machine, all its processes together: what a
 * row's requests cost the database, beside what they cost the server that sent them. On a
 * machine of two cores, shared by the servers, the load generator and PostgreSQL, that sum
 * says how much more rate the machine has room for.
 */
import { readdirSync, readFileSync } from 'node:fs'
import type pg from 'pg'
import { secondsAt, statFields } from '../lib/proc-stat.ts'

/**
 * A reader of the server's CPU seconds so far, or undefined when its processes are not this
 * machine's (a server elsewhere, or in a container of its own).
 */
export async function postgresCpu (admin: pg.Client): Promise<(() => number) | undefined> {
  const { rows } = await admin.query<{ pid: number }>('select pg_backend_pid() as pid')
  const backend = rows[0]!.pid
  let postmaster: number
  try {
    // A process of that number here, but not PostgreSQL's: the server's are in another namespace.
    if (readFileSync(`/proc/${backend}/comm`, 'utf8').trim() !== 'postgres') return undefined
    // The backend's parent, which forks every process of the server.
    postmaster = Number(statFields(backend)[1])
  } catch {
    return undefined
  }
  return () => {
    // The postmaster's own time, that of its children already gone (cutime and cstime), and
    // that of each child still running. A child that ends between the two reads is missed.
    const own = statFields(postmaster)
    let seconds = secondsAt(own, 11) + secondsAt(own, 13)
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      try {
        const fields = statFields(entry)
        if (Number(fields[1]) === postmaster) seconds += secondsAt(fields, 11)
      } catch {
        // Gone since the folder was read: its time is now its parent's cutime and cstime.
      }
    }
    return seconds
  }
}
