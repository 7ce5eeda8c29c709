/**
 * What the last runs of the tests recorded about what each one ran, kept in `.tap/test-deps/`
 * beside node-tap's own records (and, like them, never committed):
 * - `index.json`: per test file, whether it passed, and each file of the project its
 *   processes loaded: the file's hash then and the lines each process never ran;
 * - `trees/<hash>.json`: the hash of every file of the project at such a run, for the files
 *   a test reads rather than loads (the document, a fixture, the README);
 * - `sources/<hash>`: each such file's text, so that an edit can be compared with the text
 *   the test ran.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Span } from './never-run.ts'

export interface LoadedFile {
  hash: string
  /** Per process that loaded it (distinct ones only), the spans it never ran; `[]` in it: it ran all it could. */
  neverRun: Span[][]
}

export interface TestRecord {
  passed: boolean
  /** The hash of the tree file holding every file's hash at that run. */
  tree: string
  files: Record<string, LoadedFile>
}

export interface Index { tests: Record<string, TestRecord> }

export const hashOf = (text: string | Buffer) => createHash('sha1').update(text).digest('hex')

export class Store {
  readonly directory: string

  constructor (root: string) {
    this.directory = join(root, '.tap', 'test-deps')
  }

  get exists () {
    return existsSync(join(this.directory, 'index.json'))
  }

  /** Drops the record: every test counts as never run. */
  forget () {
    rmSync(join(this.directory, 'index.json'), { force: true })
  }

  readIndex (): Index {
    return this.exists ? JSON.parse(readFileSync(join(this.directory, 'index.json'), 'utf8')) : { tests: {} }
  }

  writeIndex (index: Index) {
    this.write('index.json', JSON.stringify(index))
  }

  /** Keeps a file's text under its hash, once. */
  keepSource (hash: string, text: Buffer) {
    if (!existsSync(join(this.directory, 'sources', hash))) this.write(join('sources', hash), text)
  }

  source (hash: string): string {
    return readFileSync(join(this.directory, 'sources', hash), 'utf8')
  }

  /** Keeps a tree (path to hash), returning its own hash. */
  keepTree (tree: Record<string, string>): string {
    const text = JSON.stringify(tree)
    const hash = hashOf(text)
    if (!existsSync(join(this.directory, 'trees', `${hash}.json`))) this.write(join('trees', `${hash}.json`), text)
    return hash
  }

  tree (hash: string): Record<string, string> {
    return JSON.parse(readFileSync(join(this.directory, 'trees', `${hash}.json`), 'utf8'))
  }

  /** Writes whole or not at all: a run stopped halfway leaves the last complete record. */
  private write (name: string, content: string | Buffer) {
    const path = join(this.directory, name)
    mkdirSync(join(path, '..'), { recursive: true })
    writeFileSync(`${path}.partial`, content)
    renameSync(`${path}.partial`, path)
  }
}
