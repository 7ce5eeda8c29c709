/**
 * The benchmark's ceiling: the same three operations as bare Fastify over better-sqlite3,
 * with hand-prepared statements and the same SQLite settings, but no validation, auth,
 * int64 care or error shaping. The service is measured as a ratio of this.
 */
import SQLite from 'better-sqlite3'
import Fastify from 'fastify'

const sqlite = new SQLite(process.env.DATABASE_URL!)
sqlite.pragma('journal_mode = WAL')
sqlite.pragma(`synchronous = ${process.env.SQLITE_SYNCHRONOUS ?? 'FULL'}`)
sqlite.exec(`create table if not exists pets (
  id integer primary key autoincrement, name text not null, category_id bigint not null, status text)`)
sqlite.exec('create index if not exists pets_status_id on pets (status, id)')

const insert = sqlite.prepare('insert into pets (name, category_id, status) values (?, ?, ?) returning *')
const page = sqlite.prepare('select * from pets where id > ? order by id limit ?')
const pageWithStatus = sqlite.prepare('select * from pets where status = ? and id > ? order by id limit ?')
const one = sqlite.prepare('select * from pets where id = ?')

type Row = { id: number, name: string, category_id: number, status: string | null }
const toPet = (row: Row) => ({ id: row.id, name: row.name, categoryId: row.category_id, ...(row.status !== null && { status: row.status }) })

const app = Fastify()
app.get<{ Querystring: { limit?: string, status?: string, cursor?: string } }>('/v1/pets', async (request) => {
  const { limit = 20, status, cursor = 0 } = request.query
  const rows = status === undefined ? page.all(Number(cursor), Number(limit)) : pageWithStatus.all(status, Number(cursor), Number(limit))
  return (rows as Row[]).map(toPet)
})
app.post<{ Body: { name: string, categoryId: number, status?: string } }>('/v1/pets', async (request, reply) => {
  const { name, categoryId, status } = request.body
  return reply.code(201).send(toPet(insert.get(name, categoryId, status ?? null) as Row))
})
app.get<{ Params: { id: string } }>('/v1/pets/:id', async (request, reply) => {
  const row = one.get(Number(request.params.id)) as Row | undefined
  return row === undefined ? reply.code(404).send({ code: 'not_found' }) : toPet(row)
})

const address = await app.listen({ port: 0, host: '127.0.0.1' })
console.log(`Baseline on ${address}/v1`)
