/**
 * npm run test:changed picks the tests of what changed: the mirror folder of a source
 * file, a test file itself, a script's own tests, and the whole suite for what may touch
 * anything.
 */
import t from 'tap'
import { testsFor } from '../../scripts/lib/changed-tests.ts'

const folders = new Set(['test/features/pets', 'test/features/orders', 'test/http', 'test/database', 'test/contract', 'test/features/api-keys/auth.test.ts'])
const exists = (path: string) => folders.has(path)
const scriptTests = ['test/scripts/backup.test.ts', 'test/scripts/backup-refusals.test.ts', 'test/scripts/keys.test.ts']

t.test('a source file calls for the tests of the same name', async (t) => {
  t.same(testsFor(['src/features/pets/repository.ts', 'src/http/json.ts'], exists, scriptTests), { run: ['test/features/pets', 'test/http'] })
  t.same(testsFor(['src/database/sqlite.ts', 'migrations/20270101000000_add.ts'], exists, scriptTests), { run: ['test/database'] })
  t.same(testsFor(['spec/openapi.yaml', 'generated/openapi.ts', 'README.md', 'docs/performance.md'], exists, scriptTests), { run: ['test/contract'] })
})

t.test('a test file calls for itself, unless its folder runs anyway', async (t) => {
  t.same(testsFor(['test/features/api-keys/auth.test.ts'], exists, scriptTests), { run: ['test/features/api-keys/auth.test.ts'] })
  t.same(testsFor(['test/features/pets/gone.test.ts'], exists, scriptTests), { run: [] }, 'a deleted test file')
  const inside = new Set([...folders, 'test/features/pets/create-pet.test.ts'])
  t.same(testsFor(['test/features/pets/create-pet.test.ts', 'src/features/pets/handlers.ts'], (path) => inside.has(path), scriptTests), { run: ['test/features/pets'] })
})

t.test('a script calls for its own tests; the client package for its tests', async (t) => {
  t.same(testsFor(['scripts/backup.ts', 'scripts/lib/keys.ts'], exists, scriptTests),
    { run: ['test/scripts/backup-refusals.test.ts', 'test/scripts/backup.test.ts', 'test/scripts/keys.test.ts'] })
  t.same(testsFor(['client/src/client.ts'], exists, scriptTests), { run: ['client/test'] })
})

t.test('what may touch any test asks for the whole suite, naming it', async (t) => {
  t.same(testsFor(['src/app.ts', 'package.json', 'src/features/pets/handlers.ts'], exists, scriptTests), { everything: ['src/app.ts', 'package.json'] })
  t.same(testsFor(['src/features/unknown/x.ts'], exists, scriptTests), { everything: ['src/features/unknown/x.ts'] })
})
