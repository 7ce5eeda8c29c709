/**
 * The package as its consumers get it: packed with `npm pack`, installed into a plain
 * JavaScript (ESM) project with `npm install <tarball>`, and used from there, with no
 * TypeScript loader, against a running service (the build `npm start` runs). A TypeScript
 * consumer is type-checked against the declarations the tarball ships.
 */
import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { TEST_KEY } from '../helper.ts'
import { CHILD_ENV, startServer, tempDir } from '../process-helper.ts'

const run = promisify(execFile)
const root = new URL('../../', import.meta.url)
const fixtures = new URL('../fixtures/consumer/', import.meta.url)
// npm run's own variables (npm_config_*, npm_package_*) would point the inner npm at this
// project instead of the consumer's.
const env = Object.fromEntries(Object.entries(CHILD_ENV).filter(([name]) => !name.toLowerCase().startsWith('npm_')))

async function npm (args: string[], cwd: string | URL) {
  return run('npm', [...args, '--no-audit', '--no-fund'], { cwd, env, maxBuffer: 16 * 1024 * 1024 })
}

t.test('a plain JavaScript project installs the tarball and lists, creates, pages and cancels', async (t) => {
  t.ok(existsSync(new URL('dist/src/client/index.js', root)), 'dist/ holds the client: run npm run build (npm install does it)')
  const dir = tempDir(t)
  // --ignore-scripts: packing would run `prepare` (the build) into this project's dist/,
  // under the test files that run the built server from it; `npm ci` built it already.
  const packed = JSON.parse((await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root)).stdout) as Array<{ filename: string, files: Array<{ path: string }> }>
  const files = packed[0]!.files.map((file) => file.path)
  for (const needed of ['dist/src/client/index.js', 'dist/src/client/index.d.ts', 'dist/generated/openapi.d.ts', 'dist/server.js', 'dist/spec/openapi.yaml']) {
    t.ok(files.includes(needed), `the tarball holds ${needed}`)
  }
  t.notOk(files.some((file) => /^(src|test|scripts)\//.test(file)), 'and no sources or tests')

  const app = join(dir, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  copyFileSync(new URL('consumer.mjs', fixtures), join(app, 'consumer.mjs'))
  // --ignore-scripts: the client runs no install script and never loads the server's
  // native SQLite module, which would otherwise compile from source (minutes); so this
  // also proves the client works without it. --prefer-offline: npm ci filled the cache.
  await npm(['install', join(dir, packed[0]!.filename), '--prefer-offline', '--ignore-scripts'], app)

  const server = await startServer({ DATABASE_URL: join(dir, 'petstore.db'), PETSTORE_API_KEYS: TEST_KEY }, { built: true })
  t.teardown(() => { server.child.kill('SIGTERM') })
  const { stdout, stderr } = await run(process.execPath, ['consumer.mjs'], {
    cwd: app, env: { ...env, PETSTORE_URL: `${server.base}/v1`, PETSTORE_API_KEY: TEST_KEY }
  })
  t.equal(stderr, '')
  const out = JSON.parse(stdout)
  const pets = ['Rex', 'Tom', 'Kit', 'Ada', 'Max'].map((name, i) => ({ id: i + 1, name, categoryId: 1, status: 'sold' }))
  const big = { id: 6, name: 'Big', categoryId: '9223372036854775807n' }
  t.strictSame(out.created, [...pets, big])
  t.strictSame(out.listed, [...pets, big], 'every page, two at a time, the int64 maximum exact')
  t.strictSame(out.sold, { items: pets.slice(0, 3), nextCursor: out.sold.nextCursor, hasMore: true })
  t.type(out.sold.nextCursor, 'string')
  t.strictSame(out.order, { id: 1, petId: 1, quantity: 2, complete: false })
  t.strictSame(out.orders, [], 'cancelled')
  t.strictSame(out.again, { isPetstoreError: true, status: 404, code: 'not_found', message: 'Order 1 not found', requestId: 'string' })

  // TypeScript consumers: the shipped declarations, checked by this project's compiler.
  copyFileSync(new URL('consumer.ts', fixtures), join(app, 'consumer.ts'))
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmit: true },
    files: ['consumer.ts']
  }))
  const tsc = new URL('node_modules/typescript/bin/tsc', root)
  const checked = await run(process.execPath, [tsc.pathname, '-p', app], { env }).catch((error: { stdout: string }) => error)
  t.equal(checked.stdout, '', 'consumer.ts type-checks against the installed package (tsc prints nothing)')
})
