/**
 * A prepared query cannot bind NULL by mistake: a misspelt marker name does not compile,
 * and a value that is missing at run time throws before anything is written.
 */
import t from 'tap'
import { prepare } from '../../src/database/prepared.ts'
import { build } from '../helpers/app.ts'

t.test('a marker name the values do not have throws, and writes nothing', async (t) => {
  const app = await build(t)
  const insert = prepare<{ name: string, status: string | null }, { id: number }>((db, param) =>
    db.insertInto('pets').values({
      name: param('name'),
      category_id: 1,
      // @ts-expect-error: a misspelt name is refused by the compiler...
      status: param('stauts')
    }).returning('id'))
  // ...and, should a cast hide it, at run time.
  await t.rejects(insert(app.db, { name: 'Rex', status: 'sold' }), { message: 'prepared query: no value for stauts (use null for SQL NULL)' })
  const missing = prepare<{ name: string, status: string | null }, { id: number }>((db, param) =>
    db.insertInto('pets').values({ name: param('name'), category_id: 1, status: param('status') }).returning('id'))
  await t.rejects(missing(app.db, { name: 'Rex' } as never), { message: 'prepared query: no value for status (use null for SQL NULL)' })
  t.equal((await app.db.selectFrom('pets').selectAll().execute()).length, 0, 'nothing was written')
  const { rows } = await missing(app.db, { name: 'Rex', status: null })
  t.equal(rows.length, 1, 'an explicit null is SQL NULL')
})
