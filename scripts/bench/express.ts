/**
 * The peer: the same three pet operations as an idiomatic Express 5 service over
 * better-sqlite3, written as a typical team would: express.json(), a bearer-key
 * middleware, one prepared statement per query, res.json (JSON.stringify), WAL with
 * `synchronous=NORMAL` (a commit is not fsynced; the service fsyncs every one).
 * Run by `npm run bench`; the service is measured as a ratio of it.
 */
import SQLite from 'better-sqlite3'
import express, { type NextFunction, type Request, type Response } from 'express'

const sqlite = new SQLite(process.env.DATABASE_URL!)
sqlite.pragma('journal_mode = WAL')
sqlite.pragma('synchronous = NORMAL')
sqlite.exec(`create table if not exists pets (
  id integer primary key autoincrement, name text not null, category_id integer not null, status text)`)
sqlite.exec('create index if not exists pets_status_id on pets (status, id)')

const statements = {
  insert: sqlite.prepare('insert into pets (name, category_id, status) values (?, ?, ?) returning *'),
  page: sqlite.prepare('select * from pets where id > ? order by id limit ?'),
  pageWithStatus: sqlite.prepare('select * from pets where status = ? and id > ? order by id limit ?'),
  one: sqlite.prepare('select * from pets where id = ?')
}

type Row = { id: number, name: string, category_id: number, status: string | null }
const toPet = (row: Row) => ({ id: row.id, name: row.name, categoryId: row.category_id, ...(row.status !== null && { status: row.status }) })

const keys = new Set(process.env.PETSTORE_API_KEYS!.split(','))
function requireKey (req: Request, res: Response, next: NextFunction) {
  const header = req.get('authorization') ?? ''
  if (!header.startsWith('Bearer ') || !keys.has(header.slice(7))) {
    res.status(401).json({ code: 'unauthorized', message: 'Invalid API key', status: 401 })
    return
  }
  next()
}

const STATUSES = ['available', 'pending', 'sold']
const app = express()
app.disable('x-powered-by')
app.use(express.json())
app.use('/v1', requireKey)

app.get('/v1/pets', (req, res) => {
  const limit = Number(req.query.limit ?? 20)
  const afterId = Number(req.query.cursor ?? 0)
  const status = req.query.status
  if (!Number.isInteger(limit) || limit < 1 || limit > 100 || (status !== undefined && !STATUSES.includes(String(status)))) {
    res.status(400).json({ code: 'invalid_request', message: 'Invalid query', status: 400 })
    return
  }
  const rows = (status === undefined
    ? statements.page.all(afterId, limit)
    : statements.pageWithStatus.all(status, afterId, limit)) as Row[]
  res.json(rows.map(toPet))
})

app.post('/v1/pets', (req, res) => {
  const { name, categoryId, status } = req.body ?? {}
  if (typeof name !== 'string' || name === '' || !Number.isInteger(categoryId) || (status !== undefined && !STATUSES.includes(status))) {
    res.status(400).json({ code: 'invalid_request', message: 'Invalid pet', status: 400 })
    return
  }
  res.status(201).json(toPet(statements.insert.get(name, categoryId, status ?? null) as Row))
})

app.get('/v1/pets/:id', (req, res) => {
  const row = statements.one.get(Number(req.params.id)) as Row | undefined
  if (row === undefined) res.status(404).json({ code: 'not_found', message: 'Pet not found', status: 404 })
  else res.json(toPet(row))
})

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address() as { port: number }
  console.log(`Express peer on http://127.0.0.1:${address.port}/v1`)
})
