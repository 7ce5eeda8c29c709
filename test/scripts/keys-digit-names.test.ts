/**
 * `npm run keys` as run: a key named with digits, revoked by name, and a target that is the
 * id of one key and the name of another (keys.test.ts lists the other files).
 */
import { join } from 'node:path'
import t from 'tap'
import { keys, keysFailure as failure, tempDir } from '../helpers/process.ts'

t.test('a key named with digits can be revoked by name, and an ambiguous target is refused', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  await keys(url, 'create', '--name', 'first')
  await keys(url, 'create', '--name', '4242')
  t.equal((await keys(url, 'revoke', '4242')).stdout, 'Revoked key "4242" (id 2).\n', 'no key has the id 4242, so it is the name')
  await keys(url, 'create', '--name', '1')
  const ambiguous = await failure(url, 'revoke', '1')
  t.equal(ambiguous.code, 1)
  t.equal(ambiguous.stderr, 'keys: "1" is the id of one active key and the name of another; say --id 1 or --name 1\n')
  t.equal((await keys(url, 'revoke', '--name', '1')).stdout, 'Revoked key "1" (id 3).\n')
  t.equal((await keys(url, 'revoke', '--id', '1')).stdout, 'Revoked key "first" (id 1).\n')
})
