/**
 * Why a database could not be opened, as a failed start says it: naming the database, and,
 * for SQLite's driver built for another Node (an upgrade since `npm install`), the command
 * that builds it for this one.
 */
import t from 'tap'
import { cannotOpen } from '../../src/database/plugin.ts'

t.test('a driver built for another Node names the command that rebuilds it', async (t) => {
  const loading = Object.assign(new Error("The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 137."), { code: 'ERR_DLOPEN_FAILED' })
  const error = cannotOpen('./data/petstore.db', loading)
  t.equal(error.message, `the database ./data/petstore.db could not be opened (better-sqlite3 was built for another version of Node than ${process.version}: run \`npm rebuild better-sqlite3\` with this one): ${loading.message}`)
  t.equal(error.cause, loading)
})

t.test('any other failure is said as it is', async (t) => {
  const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
  t.equal(cannotOpen('./data/petstore.db', full).message, 'the database ./data/petstore.db could not be opened: ENOSPC: no space left on device')
})
