/**
 * examples/client.ts never rots: it runs here, as a person would run it, against a
 * listening service, and must exit 0 having done what it says. So does the client snippet of
 * the README, taken from the Markdown and run where the package is installed.
 */
import { execFile } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { consumerProject, linkClient } from '../../test/helpers/consumer.ts'
import { codeBlock } from '../../test/helpers/markdown.ts'
import { CHILD_ENV, tempDir } from '../../test/helpers/process.ts'
import { TEST_KEY } from '../../test/helpers/app.ts'
import { listening } from './server.ts'

const run = promisify(execFile)
const root = new URL('../../', import.meta.url)

t.test('examples/client.ts creates, pages, names categories, orders, cancels, handles an error and reads the feed', async (t) => {
  // It imports the package by its name, which resolves to the build.
  t.ok(existsSync(new URL('client/dist/index.js', root)), 'client/dist/ holds the build: run npm run build (npm install does it)')
  const { baseUrl } = await listening(t)
  const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'examples/client.ts'], {
    cwd: root, env: { ...CHILD_ENV, PETSTORE_URL: baseUrl.replace(/\/v1$/, ''), PETSTORE_API_KEY: TEST_KEY }
  })
  t.equal(stderr, '')
  const lines = stdout.trimEnd().split('\n')
  t.strictSame(lines.slice(0, -2), [
    'created Rex, id 1',
    'created Big in category 9007199254740993',
    'sold: Big (category 9007199254740993)',
    'sold: Tom (category 2)',
    'sold: Kit (category 2)',
    'sold: Ada (category 2)',
    'category 1: Hounds (Every dog of the store)',
    'category: Hounds',
    'category: Cats',
    'category: Birds',
    'available in Hounds: Rex',
    'removed category 3; pets naming it keep their categoryId',
    'placed order 1 for pet 1, quantity 2',
    'cancelled order 1'
  ])
  t.match(lines.at(-2), /^cancelling it again: 404 not_found, "Order 1 not found" \(request [\w-]+\)$/)
  t.equal(lines.at(-1), 'event 13: order.cancelled, order 1 for pet 1', 'after five pets, five changes to categories, the order placed and its pet reserved')
})

t.test("the README's client snippet runs where the package is installed", async (t) => {
  const project = consumerProject(tempDir(t))
  linkClient(project)
  writeFileSync(join(project, 'first.mjs'), codeBlock('README.md', 'js', 'createPetstoreClient(').code)
  const { baseUrl } = await listening(t)
  const { stdout, stderr } = await run(process.execPath, ['first.mjs'], {
    cwd: project, env: { ...CHILD_ENV, PETSTORE_URL: baseUrl.replace(/\/v1$/, ''), PETSTORE_API_KEY: TEST_KEY }
  })
  t.equal(stderr, '')
  t.equal(stdout, "added { id: 1, name: 'Rex', categoryId: 1, status: 'available' }\n1 Rex\n")
})

t.test('examples/client.ts given an address with /v1 says what PETSTORE_URL is, and exits 2', async (t) => {
  const failed = await run(process.execPath, ['--import', 'tsx', 'examples/client.ts'], {
    cwd: root, env: { ...CHILD_ENV, PETSTORE_URL: 'http://127.0.0.1:3000/v1/', PETSTORE_API_KEY: TEST_KEY }
  }).then(() => undefined, (error: { code: number, stderr: string }) => error)
  t.equal(failed?.code, 2)
  t.equal(failed?.stderr, "PETSTORE_URL is the service's address without /v1: http://127.0.0.1:3000\n")
})

t.test('examples/client.ts without a key says what it needs, and exits 2', async (t) => {
  const env = Object.fromEntries(Object.entries(CHILD_ENV).filter(([name]) => name !== 'PETSTORE_API_KEY'))
  const failed = await run(process.execPath, ['--import', 'tsx', 'examples/client.ts'], { cwd: root, env })
    .then(() => undefined, (error: { code: number, stderr: string }) => error)
  t.equal(failed?.code, 2)
  t.equal(failed?.stderr, 'Set PETSTORE_API_KEY to an API key of the service (npm start prints one on a first run).\n')
})
