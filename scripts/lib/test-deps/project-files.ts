/** The files of the project as git sees them (tracked, and new ones not ignored), with their hashes. */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { hashOf } from './store.ts'

export function projectFiles (root: string): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
  const files = new Map<string, string>()
  for (const path of new Set(listed.split('\0').filter(Boolean))) {
    try {
      files.set(path, hashOf(readFileSync(join(root, path))))
    } catch {
      // Listed by the index but removed from the tree: it is not there to read.
    }
  }
  return files
}
