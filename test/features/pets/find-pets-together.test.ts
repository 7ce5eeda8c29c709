/**
 * Reading pets by id: on PostgreSQL, the reads asked for while one runs are read by one
 * statement, and each still gets its own answer; on SQLite, and inside a transaction, each
 * read is its own query.
 */
import t from 'tap'
import { inTransaction } from '../../../src/database/group-commit.ts'
import { createPet, findPet } from '../../../src/features/pets/repository.ts'
import { recordingDatabase, TEST_DATABASE } from '../../helpers/app.ts'

const sqlite = TEST_DATABASE === 'sqlite'
const TOGETHER = 'select * from pets where id = any('

t.test('reads that come together each get their own pet, or none', async (t) => {
  const { db, statements } = await recordingDatabase(t)
  const rex = await createPet(db, { name: 'Rex', categoryId: 2, status: 'sold' })
  const tom = await createPet(db, { name: 'Tom', categoryId: 3 })
  statements.length = 0
  // Missing ones among them, the largest id there is, and the same pet twice.
  const ids = [rex.id, tom.id, 9, 9223372036854775807n, rex.id, tom.id]
  const found = await Promise.all(ids.map((id) => findPet(db, id)))
  t.same(found, [rex, tom, undefined, undefined, rex, tom], 'in the order asked, each as stored')
  const together = statements.filter((statement) => statement.startsWith(TOGETHER)).length
  if (sqlite) t.equal(statements.length, ids.length, 'SQLite: one query per read')
  else {
    t.equal(together, 2, 'PostgreSQL: the first at once, then one statement for the five others')
    t.equal(statements.length, 2, 'and nothing else')
  }
})

t.test('PostgreSQL: reads one after another are each a statement of their own', { skip: sqlite && 'PostgreSQL only' }, async (t) => {
  const { db, statements } = await recordingDatabase(t)
  const rex = await createPet(db, { name: 'Rex', categoryId: 2 })
  statements.length = 0
  t.same(await findPet(db, rex.id), rex)
  t.same(await findPet(db, Number(rex.id) + 1), undefined)
  t.equal(statements.filter((statement) => statement.startsWith(TOGETHER)).length, 2, 'nothing to share, so nothing shared')
})

t.test('inside a transaction, a read runs at once, in it', async (t) => {
  const { db, statements } = await recordingDatabase(t)
  const rex = await createPet(db, { name: 'Rex', categoryId: 2 })
  statements.length = 0
  const found = await inTransaction(db, async (trx) => {
    const pet = await createPet(trx, { name: 'Tom', categoryId: 3 })
    // Not yet committed: only a read in the same transaction sees it.
    return Promise.all([findPet(trx, rex.id), findPet(trx, pet.id)])
  })
  t.equal(found[0]?.name, 'Rex')
  t.equal(found[1]?.name, 'Tom', 'the transaction\'s own pet')
  t.equal(statements.filter((statement) => statement.startsWith(TOGETHER)).length, 0, 'no statement of reads together')
})
