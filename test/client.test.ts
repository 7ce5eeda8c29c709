/**
 * `petstore-service/client` keeps working for the imports written before the client became
 * its own package, as a project that installed the service imports it: from the service's
 * folder or from its tarball (which carries petstore-client in it, `bundleDependencies`).
 * It is petstore-client itself (the same module, so `instanceof PetstoreError` holds
 * whichever name a project imports it by), in JavaScript and in TypeScript.
 */
import { existsSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import t, { type Test } from 'tap'
import { CONSUMER_ENV, consumerProject, npm, run, typeCheck } from './helpers/consumer.ts'
import { tempDir } from './helpers/process.ts'

const root = new URL('../', import.meta.url)

/** Imports petstore-service/client in `app` and compares it with petstore-client at `own`. */
async function reexports (t: Test, app: string, own: string) {
  writeFileSync(join(app, 'consumer.mjs'), [
    "const reexported = await import('petstore-service/client')",
    `const own = await import(${JSON.stringify(pathToFileURL(own).href)})`,
    'const same = Object.keys(own).every((name) => reexported[name] === own[name])',
    'const client = reexported.createPetstoreClient({ baseUrl: "http://127.0.0.1:1/v1", apiKey: "k" })',
    'console.log(JSON.stringify({ names: Object.keys(reexported), same, listPets: typeof client.listPets }))'
  ].join('\n'))
  const { stdout, stderr } = await run(process.execPath, ['consumer.mjs'], { cwd: app, env: CONSUMER_ENV })
  t.equal(stderr, '')
  t.strictSame(JSON.parse(stdout), { names: ['PetstoreError', 'WebhookVerificationError', 'createPetstoreClient', 'verifyWebhook'], same: true, listPets: 'function' })

  writeFileSync(join(app, 'consumer.ts'), [
    "import { createPetstoreClient, PetstoreError, type Pet } from 'petstore-service/client'",
    "const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey: 'k' })",
    'const pets: Pet[] = (await client.listPetsPage({ limit: 1 })).items',
    'console.log(pets, PetstoreError)',
    '// @ts-expect-error: not a status of the document',
    "client.listPets({ status: 'lost' })"
  ].join('\n'))
  t.equal(await typeCheck(app, 'consumer.ts'), '', 'consumer.ts type-checks against the re-export (tsc prints nothing)')
}

t.test('installed from the service\'s folder, petstore-service/client is petstore-client', async (t) => {
  t.ok(existsSync(new URL('dist/src/client.js', root)), 'dist/ holds the re-export: run npm run build (npm install does it)')
  const app = consumerProject(tempDir(t))
  // What `npm install /path/to/petstore-service` makes: a link to the folder.
  symlinkSync(fileURLToPath(root), join(app, 'node_modules/petstore-service'))
  await reexports(t, app, fileURLToPath(new URL('client/dist/index.js', root)))
})

t.test('installed from the service\'s tarball, petstore-service/client is the petstore-client it carries', async (t) => {
  const dir = tempDir(t)
  // --ignore-scripts, twice: packing would run `prepare` (the build) into this project's
  // dist/, under the other test files that run it, and `npm ci` built it already; installing
  // would compile the SQLite driver, which the client never loads. --prefer-offline: npm ci
  // filled the cache.
  const packed = JSON.parse((await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root)).stdout) as Array<{ filename: string, bundled: string[] }>
  t.ok(packed[0]!.bundled.includes('petstore-client'), 'the tarball carries petstore-client')
  const app = consumerProject(dir)
  await npm(['install', join(dir, packed[0]!.filename), '--ignore-scripts', '--prefer-offline'], app)
  await reexports(t, app, join(app, 'node_modules/petstore-service/node_modules/petstore-client/dist/index.js'))
})
