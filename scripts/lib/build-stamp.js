// @ts-check
/**
 * The build's stamp, dist/build-stamp.json: a content hash of every file `npm run build`
 * makes the served service from, so `npm start` can tell a build older than its sources
 * (scripts/lib/fresh-build.js). Contents, not modification times: a checkout, a copy or
 * `npm run codegen` that writes the same bytes again leaves the build fresh.
 *
 * `npm run build` runs this twice: `begin` first, hashing the sources as the build is about
 * to read them and removing the old stamp, and `end` last, once every step has succeeded.
 * A file saved while the build runs is then stale at the next start, and a build that
 * stopped halfway has no stamp at all.
 *
 * The stamp also keeps each file's size and times, as git's index does, so a start reads
 * only the files whose size or times changed since (hashing them all took most of the
 * check). The times of a file written in the last seconds before the hashing began are not
 * trusted: the clock a file system stamps with is coarse, and a file saved twice within
 * one tick, with the same size, would look unchanged. `ctime`, which no copy or `touch`
 * can set, is among the times; a copied project is then hashed in full, as before.
 *
 * It also names the Node that built: the bundle's code cache is V8's, for that Node alone,
 * so a start on another Node (an upgrade) rebuilds, as for a source changed.
 *
 * Plain JavaScript, checked by tsc through JSDoc: `npm start` runs it before any build
 * exists, and Node 20 runs no TypeScript without a loader.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * What the build reads, relative to the project; a folder stands for every file in it but
 * its README.md files. The document comes first, so a message names it first.
 * client/ is not here: the service never loads it (the build rebuilds it anyway).
 */
export const INPUTS = [
  'spec/openapi.yaml', // dist/spec/, read at start
  'src', 'migrations', 'generated', // compiled by tsc, bundled into dist/bundle.cjs
  'tsconfig.json', 'tsconfig.build.json', 'scripts/build-spec.ts', 'scripts/precompile.ts', 'scripts/bundle.ts', // how
  'scripts/bundle-entry.js', 'scripts/code-cache.ts', // dist/server.js, and the bundle's code cache
  'package.json', 'package-lock.json' // the build script, and the versions of the packages bundled
]

export const STAMP = 'dist/build-stamp.json'
const PENDING = 'dist/build-stamp.pending.json'

/**
 * A file's size and times, as `[size, mtimeMs, ctimeMs]`: what tells, short of reading it,
 * that it is the file hashed before.
 * @typedef {[number, number, number]} FileStat
 */

/**
 * What the stamp holds: each input's hash and, to spare reading the files, the stat it had
 * when hashed and the time the hashing began.
 * @typedef {object} Hashed
 * @property {Record<string, string>} inputs every input file (relative path, `/`-separated) with the hash of its contents, in INPUTS order
 * @property {Record<string, FileStat>} stats
 * @property {number} hashedAt
 * @property {string} runtime the Node that built (`runtime()`)
 */

/** This Node, as the build depends on it: its version and its V8's. */
export function runtime () {
  return `Node ${process.version} (V8 ${process.versions.v8})`
}

/** Times within this much before the hashing began are not trusted to tell a change. */
const RACY_MS = 3000

/**
 * Every input file with the hash of its contents, in INPUTS order. A file whose stat is the
 * one `known` recorded, from before its hashing began (RACY_MS), keeps its known hash
 * unread.
 * @param {URL} [root]
 * @param {Hashed} [known]
 * @returns {Hashed}
 */
export function hashInputs (root = projectRoot(), known) {
  const hashedAt = Date.now()
  /** @type {Record<string, string>} */
  const inputs = {}
  /** @type {Record<string, FileStat>} */
  const stats = {}
  for (const input of INPUTS) {
    for (const file of files(root, input)) {
      // Taken before the file is read: a change meanwhile moves its times past this stat's.
      const { size, mtimeMs, ctimeMs } = statSync(new URL(file, root))
      const stat = stats[file] = [size, mtimeMs, ctimeMs]
      const was = known?.stats[file]
      const unchanged = was !== undefined && known?.inputs[file] !== undefined && was.every((value, i) => value === stat[i]) &&
        Math.max(mtimeMs, ctimeMs) < known.hashedAt - RACY_MS
      inputs[file] = unchanged ? known.inputs[file] : createHash('sha256').update(readFileSync(new URL(file, root))).digest('base64url')
    }
  }
  return { inputs, stats, hashedAt, runtime: runtime() }
}

/** `input` itself when it is a file, the files under it when a folder, nothing when absent. */
function files (/** @type {URL} */ root, /** @type {string} */ input) {
  /** @type {import('node:fs').Dirent[]} */
  let entries
  try {
    entries = readdirSync(new URL(input, root), { withFileTypes: true })
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code
    if (code === 'ENOTDIR') return [input]
    if (code === 'ENOENT') return []
    throw error
  }
  return entries.sort((a, b) => a.name < b.name ? -1 : 1).flatMap(/** @returns {string[]} */ (entry) => {
    const path = `${input}/${entry.name}`
    if (entry.isDirectory()) return files(root, path)
    return entry.name === 'README.md' ? [] : [path]
  })
}

/**
 * Why dist/ is not a build of the sources beside it, in words for a person, or undefined
 * when it is. A stamp written by an older version of this file counts as no stamp.
 */
export function staleness (root = projectRoot()) {
  /** @type {Partial<Hashed> | undefined} */
  let stamp
  try {
    stamp = JSON.parse(readFileSync(new URL(STAMP, root), 'utf8'))
  } catch {}
  const built = stamp?.inputs
  if (built === undefined || typeof built !== 'object') return 'dist/ holds no complete build'
  if (stamp?.runtime !== runtime()) return `dist/ was built by ${stamp?.runtime ?? 'another Node'}, and this is ${runtime()}`
  // A stamp without stats (an older version of this file's) has every file read.
  const known = typeof stamp?.stats === 'object' && typeof stamp.hashedAt === 'number' ? /** @type {Hashed} */ (stamp) : undefined
  const now = hashInputs(root, known).inputs
  const changed = [...new Set([...Object.keys(now), ...Object.keys(built)])].filter((file) => now[file] !== built[file])
  if (changed.length === 0) return undefined
  const more = changed.length === 1 ? '' : ` and ${changed.length - 1} more file${changed.length === 2 ? '' : 's'}`
  return `dist/ was built from older sources (${changed[0]}${more} changed)`
}

/** The start of `npm run build`: the sources' hashes, kept aside until the build has succeeded. */
export function begin (root = projectRoot()) {
  mkdirSync(new URL('dist/', root), { recursive: true })
  rmSync(new URL(STAMP, root), { force: true })
  writeFileSync(new URL(PENDING, root), JSON.stringify(hashInputs(root), null, 2) + '\n')
}

/** The end of `npm run build`: every step succeeded, so dist/ is the build of what `begin` hashed. */
export function end (root = projectRoot()) {
  if (!existsSync(new URL(PENDING, root))) throw new Error(`${PENDING} is missing: \`npm run build\` runs \`build-stamp.js begin\` first`)
  renameSync(new URL(PENDING, root), new URL(STAMP, root))
}

/** The project this file belongs to (scripts/lib/ is two folders down). */
export function projectRoot () {
  return new URL('../../', import.meta.url)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const step = process.argv[2]
  if (step === 'begin') begin()
  else if (step === 'end') end()
  else {
    console.error('usage: node scripts/lib/build-stamp.js begin|end')
    process.exit(2)
  }
}
