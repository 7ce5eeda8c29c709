/**
 * SQLite's online backup of a live database into a file of its own. The pages are copied in
 * steps, each under a brief read lock, so the service keeps writing meanwhile; into a
 * temporary file beside the destination, checked, and renamed into place only once whole, so
 * a failed or interrupted backup never leaves half a database under the destination's name.
 * @see https://www.sqlite.org/backup.html
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import SQLite from 'better-sqlite3'

export interface BackupOptions {
  /** How long a step waits for a lock another process holds (SQLite's busy timeout). */
  lockTimeoutMs: number
  /** Pages the first step copies (4 MiB of the service's 4 KiB pages by default). */
  firstStepPages?: number
  /** Told after each step, before the next. */
  onStep?: (progress: SQLite.BackupMetadata) => void
}

export interface BackupResult {
  pages: number
  bytes: number
}

// The most better-sqlite3 passes to a step.
const MAX_STEP = 0x7fffffff

/**
 * How many pages each step copies. SQLite starts a backup over when another connection
 * writes between two of its steps; under a steady stream of writes, steps of a fixed size
 * would start over forever. So each restart doubles the step, until one step copies all that
 * is left under one read lock, which in WAL mode holds up no writer either: it only keeps the
 * WAL from being checkpointed past it until it ends.
 */
export function stepPlanner (firstStepPages: number): (progress: SQLite.BackupMetadata) => number {
  let step = firstStepPages
  let expected = Number.POSITIVE_INFINITY
  return ({ remainingPages }) => {
    // More left than the last step should have left: it started over (or waited on a lock).
    if (remainingPages > expected) step = Math.min(step * 2, MAX_STEP)
    expected = remainingPages - step
    return step
  }
}

/** Copies the SQLite database `source` to `destination`, replacing any file there. */
export async function backupSqlite (source: string, destination: string, options: BackupOptions): Promise<BackupResult> {
  // Absolute and ending in digits: better-sqlite3 trims the name it is given.
  const partial = `${resolve(destination)}.partial-${process.pid}`
  let pages
  try {
    pages = await copy(source, partial, options)
    check(source, partial)
    renameSync(partial, destination)
  } catch (error) {
    for (const file of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`]) rmSync(file, { force: true })
    throw error
  }
  syncFolder(dirname(partial))
  return { pages, bytes: statSync(destination).size }
}

async function copy (source: string, partial: string, { lockTimeoutMs, firstStepPages = 1024, onStep }: BackupOptions): Promise<number> {
  // Only read from, and never made where there is none. Not opened read-only: the last
  // connection to close a WAL database removes its -wal and -shm files (checkpointing what
  // the WAL holds, as the service does), which a read-only one cannot; SQLite falls back to
  // reading only by itself where the file cannot be written.
  const db = new SQLite(source, { fileMustExist: true, timeout: lockTimeoutMs })
  try {
    const plan = stepPlanner(firstStepPages)
    const { totalPages } = await db.backup(partial, {
      progress (progress) {
        onStep?.(progress)
        return plan(progress)
      }
    })
    // better-sqlite3 reports a first step that met a lock as a finished backup of no pages.
    if (totalPages === 0) throw new Error(`${source} is locked by another process (waited ${lockTimeoutMs} ms)`)
    return totalPages
  } finally {
    db.close()
  }
}

/**
 * Checks the copy before it replaces anything: a page damaged in the live database is copied
 * as it is, and must not overwrite a good older backup.
 */
function check (source: string, partial: string): void {
  const copy = new SQLite(partial, { fileMustExist: true })
  try {
    const verdict = copy.pragma('quick_check(1)', { simple: true }) as string
    if (verdict !== 'ok') {
      throw new Error(`the copy fails SQLite's quick_check, so ${source} may itself be damaged: ${verdict.replace(/^\*\*\* in database main \*\*\*\n/, '').replaceAll('\n', '; ')}`)
    }
    // The copy carries the live database's WAL mode. In rollback-journal mode it is one
    // self-contained file that opens even where it cannot be written (a read-only backup
    // volume); the service switches it back to WAL when it starts on it.
    copy.pragma('journal_mode = DELETE')
  } finally {
    copy.close()
  }
}

/** Makes the rename durable: without it, a power cut could undo it after we said it was done. */
function syncFolder (folder: string): void {
  const fd = openSync(folder, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
