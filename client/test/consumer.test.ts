/**
 * The package as its consumers get it: packed with `npm pack -w petstore-client`, installed
 * into a plain JavaScript (ESM) project with `npm install <tarball>`, and used from there,
 * with no TypeScript loader, against a running service (the build `npm start` runs). A
 * TypeScript consumer is type-checked against the declarations the tarball ships.
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { TEST_KEY } from '../../test/helpers/app.ts'
import { CONSUMER_ENV, consumerProject, npm, run, typeCheck } from '../../test/helpers/consumer.ts'
import { startServer, tempDir } from '../../test/helpers/process.ts'

const root = new URL('../../', import.meta.url)
const fixtures = new URL('fixtures/consumer/', import.meta.url)

interface Packed { filename: string, size: number, files: Array<{ path: string }> }
interface Installed { packages: Record<string, { version?: string, hasInstallScript?: boolean, link?: boolean }> }

t.test('a plain JavaScript project installs the tarball and lists, creates, pages and cancels', async (t) => {
  t.ok(existsSync(new URL('client/dist/index.js', root)), 'client/dist/ holds the build: run npm run build (npm install does it)')
  const dir = tempDir(t)
  // --ignore-scripts: packing would run `prepack` (the client's build) into client/dist/,
  // under the other test files that import it; `npm ci` built it already.
  const packed = JSON.parse((await npm(['pack', '-w', 'petstore-client', '--ignore-scripts', '--json', '--pack-destination', dir], root)).stdout) as Packed[]
  const { filename, size, files } = packed[0]!
  const paths = files.map((file) => file.path).sort()
  t.strictSame(paths.filter((path) => !path.endsWith('.d.ts')), ['README.md', 'dist/index.js', 'package.json'], 'the bundle, its declarations, the README, nothing else')
  for (const needed of ['dist/index.d.ts', 'dist/types.d.ts', 'dist/generated/openapi.d.ts']) t.ok(paths.includes(needed), `the tarball holds ${needed}`)
  t.ok(size < 100_000, `the tarball is under 100 kB (${(size / 1000).toFixed(1)} kB)`)
  t.comment(`${filename}: ${(size / 1000).toFixed(1)} kB, ${paths.length} files`)

  const app = consumerProject(dir)
  copyFileSync(new URL('consumer.mjs', fixtures), join(app, 'consumer.mjs'))
  // No --ignore-scripts: the package and what it brings must need no install script.
  // --prefer-offline: npm ci filled the cache.
  const started = performance.now()
  await npm(['install', join(dir, filename), '--prefer-offline'], app)
  const seconds = (performance.now() - started) / 1000
  const installed = JSON.parse(readFileSync(join(app, 'node_modules/.package-lock.json'), 'utf8')) as Installed
  const names = Object.keys(installed.packages).map((path) => path.replace(/^.*node_modules\//, '')).sort()
  t.strictSame(names, ['openapi-fetch', 'openapi-typescript-helpers', 'petstore-client'], 'the client and openapi-fetch (with its types), nothing of the server')
  t.strictSame(Object.entries(installed.packages).filter(([, pkg]) => pkg.hasInstallScript === true), [], 'and no install script')
  t.comment(`npm install of the tarball: ${seconds.toFixed(1)} s, ${names.length} packages`)

  const server = await startServer(t, { DATABASE_URL: join(dir, 'petstore.db'), PETSTORE_API_KEYS: TEST_KEY }, { built: true })
  const { stdout, stderr } = await run(process.execPath, ['consumer.mjs'], {
    cwd: app, env: { ...CONSUMER_ENV, PETSTORE_URL: `${server.base}/v1`, PETSTORE_API_KEY: TEST_KEY }
  })
  t.equal(stderr, '')
  const out = JSON.parse(stdout)
  const pets = ['Rex', 'Tom', 'Kit', 'Ada', 'Max'].map((name, i) => ({ id: i + 1, name, categoryId: 1, status: 'sold' }))
  const big = { id: 6, name: 'Big', categoryId: '9223372036854775807n', status: 'available' }
  t.strictSame(out.created, [...pets, big])
  t.strictSame(out.listed, [...pets, big], 'every page, two at a time, the int64 maximum exact')
  t.strictSame(out.sold, { items: pets.slice(0, 3), nextCursor: out.sold.nextCursor, hasMore: true })
  t.type(out.sold.nextCursor, 'string')
  t.strictSame(out.order, { id: 1, petId: 6, quantity: 2, complete: false })
  t.strictSame(out.orders, [], 'cancelled')
  t.strictSame(out.again, { isPetstoreError: true, status: 404, code: 'not_found', message: 'Order 1 not found', requestId: 'string' })

  // TypeScript consumers: the shipped declarations, checked by this project's compiler.
  copyFileSync(new URL('consumer.ts', fixtures), join(app, 'consumer.ts'))
  t.equal(await typeCheck(app, 'consumer.ts'), '', 'consumer.ts type-checks against the installed package (tsc prints nothing)')
})
