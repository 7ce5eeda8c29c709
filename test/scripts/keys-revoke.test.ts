/**
 * `npm run keys` as run: revoking by id and by name, and its errors and usage errors with
 * their exit statuses (see keys.test.ts for the others).
 */
import { join } from 'node:path'
import t from 'tap'
import { USAGE } from '../../src/features/api-keys/command.ts'
import { keys, keysFailure as failure, tempDir } from '../helpers/process.ts'

t.test('revoke by id, and the errors', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  await keys(url, 'create', '--name', 'first')
  const duplicate = await failure(url, 'create', '--name', 'first')
  t.equal(duplicate.code, 1)
  t.equal(duplicate.stderr, 'keys: an active key named "first" already exists: rotate it to replace it, or revoke it first\n')
  t.equal((await keys(url, 'revoke', '1')).stdout, 'Revoked key "first" (id 1).\n')
  const again = await failure(url, 'revoke', '1')
  t.equal(again.code, 1)
  t.equal(again.stderr, 'keys: no active key with the id or name "1"\n')
  const byId = await failure(url, 'revoke', '--id', '1')
  t.equal(byId.stderr, 'keys: no active key with the id 1\n')
  t.match((await keys(url, 'create', '--name', 'first')).stdout, /\(id 2\)/, 'a revoked name can be used again')
  // Two command lines through the program, for its exit status and output: every other usage
  // is refused in-process (test/features/api-keys/command.test.ts), as each run takes seconds.
  for (const args of [[], ['create', '--name', 'x', '--bogus']]) {
    const usage = await failure(url, ...args)
    t.equal(usage.code, 2, args.join(' '))
    t.equal(usage.stderr, `${USAGE}\n`, args.join(' '))
  }
})
