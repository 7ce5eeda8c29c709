/**
 * `petstore-service/client` keeps working for the imports written before the client became
 * its own package: from the build, as a project that installed the service from its folder
 * imports it, it is petstore-client itself (the same module, so `instanceof PetstoreError`
 * holds whichever name a project imports it by), in JavaScript and in TypeScript.
 */
import { execFile } from 'node:child_process'
import { existsSync, symlinkSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import { CHILD_ENV, tempDir } from './process-helper.ts'

const run = promisify(execFile)
const root = new URL('../', import.meta.url)

t.test('petstore-service/client, from the build, is petstore-client', async (t) => {
  t.ok(existsSync(new URL('dist/src/client.js', root)), 'dist/ holds the re-export: run npm run build (npm install does it)')
  const app = tempDir(t)
  mkdirSync(join(app, 'node_modules'))
  // What `npm install /path/to/petstore-service` makes: a link to the folder.
  symlinkSync(fileURLToPath(root), join(app, 'node_modules/petstore-service'))
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  writeFileSync(join(app, 'consumer.mjs'), [
    "const reexported = await import('petstore-service/client')",
    `const own = await import(${JSON.stringify(new URL('client/dist/index.js', root).href)})`,
    'const same = Object.keys(own).every((name) => reexported[name] === own[name])',
    'console.log(JSON.stringify({ names: Object.keys(reexported), same, client: typeof reexported.createPetstoreClient({ baseUrl: "http://127.0.0.1:1/v1", apiKey: "k" }).listPets }))'
  ].join('\n'))
  const { stdout, stderr } = await run(process.execPath, ['consumer.mjs'], { cwd: app, env: CHILD_ENV })
  t.equal(stderr, '')
  t.strictSame(JSON.parse(stdout), { names: ['PetstoreError', 'createPetstoreClient'], same: true, client: 'function' })

  writeFileSync(join(app, 'consumer.ts'), [
    "import { createPetstoreClient, PetstoreError, type Pet } from 'petstore-service/client'",
    "const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey: 'k' })",
    'const pets: Pet[] = (await client.listPetsPage({ limit: 1 })).items',
    'console.log(pets, PetstoreError)',
    '// @ts-expect-error: not a status of the document',
    "client.listPets({ status: 'lost' })"
  ].join('\n'))
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmit: true },
    files: ['consumer.ts']
  }))
  const tsc = new URL('node_modules/typescript/bin/tsc', root)
  const checked = await run(process.execPath, [tsc.pathname, '-p', app], { env: CHILD_ENV }).catch((error: { stdout: string }) => error)
  t.equal(checked.stdout, '', 'consumer.ts type-checks against the re-export (tsc prints nothing)')
})
