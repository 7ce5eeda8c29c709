/**
 * The build's stamp and the check `npm start` makes with it (scripts/lib/build-stamp.js,
 * scripts/lib/fresh-build.js), on a small project whose `npm run build` stamps its
 * sources at once, or fails when told to, and counts its runs. test/scripts/start.test.ts
 * runs the real start and the real build.
 */
import { execFile } from 'node:child_process'
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import t, { type Test } from 'tap'
import { begin, end, hashInputs, STAMP, staleness } from '../../scripts/lib/build-stamp.js'
import { ensureFreshBuild } from '../../scripts/lib/fresh-build.js'
import { tempDir } from '../helpers/process.ts'

const run = promisify(execFile)
const root = new URL('../../', import.meta.url)
const buildStamp = new URL('scripts/lib/build-stamp.js', root).href

/** A project of a document, two sources and a README, with the build tools unless told otherwise. */
function project (t: Test, { tools = true } = {}) {
  const dir = join(tempDir(t), 'project')
  mkdirSync(join(dir, 'src/feature'), { recursive: true })
  mkdirSync(join(dir, 'spec'))
  writeFileSync(join(dir, 'spec/openapi.yaml'), 'openapi: 3.1.0\n')
  writeFileSync(join(dir, 'src/server.ts'), 'export {}\n')
  writeFileSync(join(dir, 'src/feature/plugin.ts'), 'export {}\n')
  writeFileSync(join(dir, 'src/README.md'), 'What belongs here.\n')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'small-service', version: '1.0.0', private: true, scripts: { build: 'node build.mjs' } }))
  // The build: the stamp's two steps around the work, which here is a line in builds.log.
  writeFileSync(join(dir, 'build.mjs'), [
    "import { appendFileSync, existsSync } from 'node:fs'",
    `import { begin, end } from ${JSON.stringify(buildStamp)}`,
    "const root = new URL('./', import.meta.url)",
    'begin(root)',
    "appendFileSync(new URL('builds.log', root), 'built\\n')",
    "if (existsSync(new URL('fail', root))) process.exit(3)",
    'end(root)'
  ].join('\n'))
  if (tools) symlinkSync(fileURLToPath(new URL('node_modules', root)), join(dir, 'node_modules'))
  const url = pathToFileURL(`${dir}/`)
  const lines: string[] = []
  return {
    dir,
    url,
    lines,
    builds: () => readFileSync(join(dir, 'builds.log'), 'utf8').split('\n').length - 1,
    ensure: () => ensureFreshBuild(url, { log: (line) => lines.push(line) })
  }
}

t.test('the stamp: what changed since the build, by contents', async (t) => {
  const { dir, url } = project(t)
  t.equal(staleness(url), 'dist/ holds no complete build', 'never built')
  begin(url)
  t.equal(staleness(url), 'dist/ holds no complete build', 'a build that has begun and not ended is no build')
  end(url)
  t.equal(staleness(url), undefined, 'fresh once it ended')
  t.same(Object.keys(hashInputs(url).inputs), ['spec/openapi.yaml', 'src/feature/plugin.ts', 'src/server.ts', 'package.json'],
    'the inputs present, the document first, the README left out')

  writeFileSync(join(dir, 'src/server.ts'), 'export {}\n')
  writeFileSync(join(dir, 'src/README.md'), 'Something else belongs here.\n')
  t.equal(staleness(url), undefined, 'the same bytes written again, or a README edited: still fresh')

  writeFileSync(join(dir, 'spec/openapi.yaml'), 'openapi: 3.1.1\n')
  t.equal(staleness(url), 'dist/ was built from older sources (spec/openapi.yaml changed)')
  writeFileSync(join(dir, 'migrations.ts'), '')
  mkdirSync(join(dir, 'migrations'))
  writeFileSync(join(dir, 'migrations/001_first.ts'), 'export {}\n')
  t.equal(staleness(url), 'dist/ was built from older sources (spec/openapi.yaml and 1 more file changed)', 'a new file')
  rmSync(join(dir, 'src/feature'), { recursive: true })
  t.equal(staleness(url), 'dist/ was built from older sources (spec/openapi.yaml and 2 more files changed)', 'a removed file')

  writeFileSync(join(dir, STAMP), '{"hashes":{}}')
  t.equal(staleness(url), 'dist/ holds no complete build', 'a stamp of another shape is no stamp')
})

t.test('the stamp: a file whose size and times are those it was hashed with is not read again', async (t) => {
  const { dir, url } = project(t)
  begin(url)
  end(url)
  const stamp = JSON.parse(readFileSync(join(dir, STAMP), 'utf8'))
  t.same(Object.keys(stamp), ['inputs', 'stats', 'hashedAt', 'runtime'])
  const rewrite = (change: (stamp: any) => void) => {
    const copy = structuredClone(stamp)
    change(copy)
    writeFileSync(join(dir, STAMP), JSON.stringify(copy))
  }

  // The files were written just before the hashing: their times are not trusted, so each
  // is read, and a hash that is not its contents' shows.
  rewrite((copy) => { copy.inputs['src/server.ts'] = 'not-its-hash' })
  t.equal(staleness(url), 'dist/ was built from older sources (src/server.ts changed)', 'times within the racy window: read')
  // Hashed well after they were written: their stats are trusted, and the file is not read.
  rewrite((copy) => { copy.inputs['src/server.ts'] = 'not-its-hash'; copy.hashedAt += 60_000 })
  t.equal(staleness(url), undefined, 'an unchanged stat: the recorded hash is taken unread')

  // The same size and the old modification time put back: its ctime still tells.
  const { atime, mtime } = statSync(join(dir, 'src/server.ts'))
  writeFileSync(join(dir, 'src/server.ts'), 'export []\n')
  utimesSync(join(dir, 'src/server.ts'), atime, mtime)
  rewrite((copy) => { copy.hashedAt += 60_000 })
  t.equal(staleness(url), 'dist/ was built from older sources (src/server.ts changed)', 'rewritten in place, its mtime restored')

  writeFileSync(join(dir, 'src/server.ts'), 'export {}\n')
  rewrite((copy) => { delete copy.stats; delete copy.hashedAt })
  t.equal(staleness(url), undefined, 'a stamp without stats (an older build\'s): every file read, still fresh')

  // The bundle's code cache is V8's, for the Node that built it.
  t.equal(stamp.runtime, `Node ${process.version} (V8 ${process.versions.v8})`)
  rewrite((copy) => { copy.runtime = 'Node v20.0.0 (V8 11.3.244.8-node.1)' })
  t.equal(staleness(url), `dist/ was built by Node v20.0.0 (V8 11.3.244.8-node.1), and this is ${stamp.runtime as string}`, 'built by another Node: stale')
  rewrite((copy) => { delete copy.runtime })
  t.equal(staleness(url), `dist/ was built by another Node, and this is ${stamp.runtime as string}`, 'a stamp that names none')
})

t.test('npm run build writes the stamp last, and removes it first', async (t) => {
  await run(process.execPath, ['scripts/lib/build-stamp.js', 'end'], { cwd: root })
    .then(() => t.fail('end without begin'), (error: { code: number, stderr: string }) => {
      t.equal(error.code, 1)
      t.match(error.stderr, 'dist/build-stamp.pending.json is missing: `npm run build` runs `build-stamp.js begin` first')
    })
  const usage = await run(process.execPath, ['scripts/lib/build-stamp.js'], { cwd: root }).catch((error: { code: number, stderr: string }) => error)
  t.same(usage, { ...usage, code: 2, stderr: 'usage: node scripts/lib/build-stamp.js begin|end\n' })
})

t.test('a stale build is rebuilt once, then taken as it is', async (t) => {
  const small = project(t)
  await small.ensure()
  t.equal(small.builds(), 1)
  t.same(small.lines, ['dist/ holds no complete build: rebuilding it with `npm run build`'])
  await small.ensure()
  t.equal(small.builds(), 1, 'no second build')

  writeFileSync(join(small.dir, 'spec/openapi.yaml'), 'openapi: 3.1.1\n')
  await small.ensure()
  t.equal(small.builds(), 2)
  t.equal(small.lines.at(-1), 'dist/ was built from older sources (spec/openapi.yaml changed): rebuilding it with `npm run build`')
  t.equal(staleness(small.url), undefined)
})

t.test('two starts at once: one builds, the other waits for it and builds nothing', async (t) => {
  const small = project(t)
  await Promise.all([small.ensure(), small.ensure()])
  t.equal(small.builds(), 1)
  t.same(small.lines.toSorted(), [
    'dist/ holds no complete build: rebuilding it with `npm run build`',
    `waiting for the rebuild another start is making (process ${process.pid})`
  ])
})

t.test('a lock left by a process that died is taken over', async (t) => {
  const small = project(t)
  const gone = (await run(process.execPath, ['-p', 'process.pid'])).stdout.trim()
  mkdirSync(join(small.dir, 'dist'))
  writeFileSync(join(small.dir, 'dist/.build.lock'), gone)
  await small.ensure()
  t.equal(small.builds(), 1)
  t.same(small.lines, ['dist/ holds no complete build: rebuilding it with `npm run build`'], 'no wait')
})

t.test('a build that fails stops the start, and leaves no stamp', async (t) => {
  const small = project(t)
  await small.ensure()
  writeFileSync(join(small.dir, 'src/server.ts'), 'export const broken =\n')
  appendFileSync(join(small.dir, 'fail'), '')
  await t.rejects(small.ensure(), new Error('dist/ was built from older sources (src/server.ts changed), and `npm run build` failed (exit code 3)'))
  t.equal(staleness(small.url), 'dist/ holds no complete build', 'the next start tries again')
})

t.test('without the build tools, a stale build is refused, naming npm run build', async (t) => {
  const small = project(t, { tools: false })
  await t.rejects(small.ensure(), new Error(
    'dist/ holds no complete build; run `npm run build`, which needs the dev dependencies (typescript, tsx, esbuild are not installed)'))
  t.same(small.lines, [])
})

t.test('no sources beside dist/ (an installed tarball): nothing to compare, nothing done', async (t) => {
  const small = project(t, { tools: false })
  rmSync(join(small.dir, 'src'), { recursive: true })
  await small.ensure()
  t.same(small.lines, [])
})
