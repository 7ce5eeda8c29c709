/**
 * Group commit: on SQLite, writes that arrive together share one transaction (one fsync),
 * each in its own savepoint; on PostgreSQL, the creates of pets that arrive together are one
 * statement; inside a transaction, a write runs at once.
 */
import { sql } from 'kysely'
import t from 'tap'
import { write } from '../../src/database/group-commit.ts'
import { createPet } from '../../src/features/pets/repository.ts'
import { placeOrder } from '../../src/features/orders/repository.ts'
import { recordingDatabase, TEST_DATABASE } from '../helpers/app.ts'
import { anotherProgram } from '../helpers/another-program.ts'
import { rowCount } from '../helpers/store.ts'

const sqlite = TEST_DATABASE === 'sqlite'

t.test('writes that arrive together are committed together, each with its own answer', async (t) => {
  const { db, statements } = await recordingDatabase(t)
  const pets = await Promise.all(Array.from({ length: 20 }, (_, i) => createPet(db, { name: `Pet ${i}`, categoryId: i })))
  t.same(pets.map((pet) => pet.name), Array.from({ length: 20 }, (_, i) => `Pet ${i}`), 'each create gets its own pet back')
  t.equal(new Set(pets.map((pet) => pet.id)).size, 20, 'with its own id')
  t.equal(await rowCount({ db }, 'pets'), 20, 'all stored')
  const begins = statements.filter((statement) => statement.startsWith('begin')).length
  // On PostgreSQL creates that come together (the pets, their events and deliveries) are
  // one statement, a transaction by itself.
  t.equal(begins, sqlite ? 1 : 0, sqlite ? 'one transaction, one commit, for all twenty' : 'PostgreSQL: no transaction opened')
  if (!sqlite) t.equal(statements.filter((statement) => statement.startsWith('with input as')).length, 2, 'PostgreSQL: the first at once, then one statement for the nineteen others')
})

t.test('while writes flow, a group gathers the writes of two turns of the event loop; alone, a write commits after its own', { skip: !sqlite && 'SQLite only: PostgreSQL does not group' }, async (t) => {
  const { db, statements } = await recordingDatabase(t)
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve))
  const commits = () => statements.filter((statement) => statement.startsWith('commit')).length

  const alone = [createPet(db, { name: 'Alone', categoryId: 1 })]
  await nextTurn()
  alone.push(createPet(db, { name: 'A turn later', categoryId: 1 }))
  await Promise.all(alone)
  t.equal(commits(), 2, 'with no commit just before, a write commits after its own turn: the next one is in another group')

  // Writes flowing: a group committed in the turn before, and one more starts now.
  statements.length = 0
  const flowing = [createPet(db, { name: 'Flowing', categoryId: 1 })]
  await nextTurn()
  flowing.push(createPet(db, { name: 'Next turn', categoryId: 1 }))
  t.same((await Promise.all(flowing)).map((pet) => pet.name), ['Flowing', 'Next turn'], 'each gets its own pet back')
  t.equal(commits(), 1, 'one commit for the writes of both turns')

  statements.length = 0
  const spread = [createPet(db, { name: 'First', categoryId: 1 })]
  await nextTurn()
  await nextTurn()
  spread.push(createPet(db, { name: 'Two turns later', categoryId: 1 }))
  await Promise.all(spread)
  t.equal(commits(), 2, 'a write two turns after the first is in the group after it')
})

t.test('PostgreSQL: while a statement of creates runs, the creates that come meanwhile are written by the next one', { skip: sqlite && 'PostgreSQL only: SQLite groups creates in a transaction' }, async (t) => {
  const { db, url, statements } = await recordingDatabase(t)
  const other = await anotherProgram(t, url)
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve))
  // The statement looks up the webhook endpoints of its events: it waits while they are locked.
  await other('begin')
  await other('lock table webhook_endpoints in access exclusive mode')
  const first = createPet(db, { name: 'First', categoryId: 1 })
  // Until its statement waits for the lock.
  const waits = async () => (await sql<{ count: number }>`select count(*)::int as count from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())`.execute(db)).rows[0]!.count > 0
  while (!await waits()) await nextTurn()
  const second = createPet(db, { name: 'Second', categoryId: 1 })
  await nextTurn()
  const third = createPet(db, { name: 'Third', categoryId: 1 })
  await nextTurn()
  await other('commit')
  t.same((await Promise.all([first, second, third])).map((pet) => pet.name), ['First', 'Second', 'Third'], 'each gets its own pet back')
  t.equal(statements.filter((statement) => statement.startsWith('with input as')).length, 2, 'the first, then one statement for the two that came in two turns while it waited')
})

t.test('PostgreSQL: a create that fails in a batch fails alone, and the events follow the pets', { skip: sqlite && 'PostgreSQL only: SQLite groups creates in a transaction' }, async (t) => {
  const { db, statements } = await recordingDatabase(t)
  const outcomes = await Promise.allSettled([
    createPet(db, { name: 'First', categoryId: 1 }),
    // PostgreSQL text cannot hold a NUL: the statement of the batch fails, and this one with it.
    createPet(db, { name: 'Nul\u0000', categoryId: 1 }),
    createPet(db, { name: 'Third', categoryId: 3, status: 'sold' })
  ])
  t.match(outcomes, [
    { status: 'fulfilled', value: { name: 'First' } },
    { status: 'rejected', reason: { message: /invalid byte sequence|0x00/ } },
    { status: 'fulfilled', value: { name: 'Third', status: 'sold' } }
  ])
  t.equal(statements.filter((statement) => statement.startsWith('with input as')).length, 4, 'the first at once, the batch of the others, then each of them alone')
  const events = await db.selectFrom('events').select(['type', 'data']).orderBy(sql`position`).execute()
  const pets = outcomes.flatMap((outcome) => outcome.status === 'fulfilled' ? [outcome.value] : [])
  t.same(events.map((event) => [event.type, JSON.parse(event.data)]), pets.map((pet) => ['pet.created', pet]), 'each stored pet has its event, as it is')
  t.equal(await rowCount({ db }, 'pets'), 2)
})

t.test('a write that fails in a group fails alone', async (t) => {
  const { db } = await recordingDatabase(t)
  const rex = await createPet(db, { name: 'Rex', categoryId: 1, status: 'available' })
  const tom = await createPet(db, { name: 'Tom', categoryId: 1, status: 'available' })
  const outcomes = await Promise.allSettled([
    placeOrder(db, { petId: rex.id, quantity: 1, complete: false }),
    write(db, async () => { throw new Error('this one fails') }),
    placeOrder(db, { petId: 999_999, quantity: 1, complete: false }),
    placeOrder(db, { petId: tom.id, quantity: 2, complete: false })
  ])
  t.match(outcomes, [
    { status: 'fulfilled', value: { outcome: 'placed', order: { petId: rex.id, quantity: 1 } } },
    { status: 'rejected', reason: { message: 'this one fails' } },
    { status: 'fulfilled', value: { outcome: 'no-pet' } },
    { status: 'fulfilled', value: { outcome: 'placed', order: { petId: tom.id, quantity: 2 } } }
  ])
  t.equal(await rowCount({ db }, 'orders'), 2, 'the others are stored')
})

t.test('a write may run twice, when another of its group fails: only its last run is kept', { skip: !sqlite && 'SQLite only: PostgreSQL does not group' }, async (t) => {
  const { db } = await recordingDatabase(t)
  let runs = 0
  const outcomes = await Promise.allSettled([
    write(db, async (trx) => {
      runs++
      return createPet(trx, { name: 'Counted', categoryId: 1 })
    }),
    write(db, async () => { throw new Error('this one fails') })
  ])
  t.match(outcomes, [{ status: 'fulfilled', value: { name: 'Counted' } }, { status: 'rejected', reason: { message: 'this one fails' } }])
  t.equal(runs, 2, 'run once in the group, then again in a savepoint of its own')
  t.equal(await rowCount({ db }, 'pets'), 1, 'and stored once')
  t.equal(await rowCount({ db }, 'events'), 1, 'with one event')
})

t.test('when the group\'s transaction fails, no write of it is acknowledged or kept', { skip: !sqlite && 'SQLite only: PostgreSQL does not group' }, async (t) => {
  const { db } = await recordingDatabase(t)
  const outcomes = await Promise.allSettled([
    createPet(db, { name: 'First', categoryId: 1 }),
    // Ends the shared transaction under the others' feet, as a failed commit would.
    write(db, async (trx) => { await sql`rollback`.execute(trx) }),
    createPet(db, { name: 'Third', categoryId: 1 })
  ])
  t.same(outcomes.map((outcome) => outcome.status), ['rejected', 'rejected', 'rejected'])
  t.equal(await rowCount({ db }, 'pets'), 0, 'nothing was kept')
  t.equal((await createPet(db, { name: 'After', categoryId: 1 })).name, 'After', 'and the next group works')
})

t.test('inside a transaction, a write runs at once, in it', async (t) => {
  const { db } = await recordingDatabase(t)
  await db.transaction().execute(async (trx) => {
    const pet = await createPet(trx, { name: 'Inside', categoryId: 1 })
    t.equal(pet.name, 'Inside')
  })
  t.equal(await rowCount({ db }, 'pets'), 1)
})
