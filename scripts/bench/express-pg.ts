/**
 * The PostgreSQL peer: the same three pet operations as an idiomatic Express 5 service over
 * node-postgres, written as a typical team would: express.json(), a bearer-key
 * middleware, a `pg.Pool` of 10 connections (pg's default, as the service's), one
 * parameterized `pool.query` per request (no transaction around it, no named prepared
 * statements), res.json (JSON.stringify). It makes its own `pets` table in the database
 * DATABASE_URL names (a postgres:// URL). Run by `npm run bench`; the service on
 * PostgreSQL is measured as a ratio of it.
 */
import express, { type NextFunction, type Request, type Response } from 'express'
import pg from 'pg'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: 10 })
await pool.query(`create table if not exists pets (
  id serial primary key, name text not null, category_id integer not null, status text)`)
await pool.query('create index if not exists pets_status_id on pets (status, id)')

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

// Express 5 passes a rejected promise of a handler to the error handler (a 500).
app.get('/v1/pets', async (req, res) => {
  const limit = Number(req.query.limit ?? 20)
  const afterId = Number(req.query.cursor ?? 0)
  const status = req.query.status
  if (!Number.isInteger(limit) || limit < 1 || limit > 100 || (status !== undefined && !STATUSES.includes(String(status)))) {
    res.status(400).json({ code: 'invalid_request', message: 'Invalid query', status: 400 })
    return
  }
  const { rows } = status === undefined
    ? await pool.query<Row>('select * from pets where id > $1 order by id limit $2', [afterId, limit])
    : await pool.query<Row>('select * from pets where status = $1 and id > $2 order by id limit $3', [status, afterId, limit])
  res.json(rows.map(toPet))
})

app.post('/v1/pets', async (req, res) => {
  const { name, categoryId, status } = req.body ?? {}
  if (typeof name !== 'string' || name === '' || !Number.isInteger(categoryId) || (status !== undefined && !STATUSES.includes(status))) {
    res.status(400).json({ code: 'invalid_request', message: 'Invalid pet', status: 400 })
    return
  }
  const { rows } = await pool.query<Row>('insert into pets (name, category_id, status) values ($1, $2, $3) returning *', [name, categoryId, status ?? null])
  res.status(201).json(toPet(rows[0]!))
})

app.get('/v1/pets/:id', async (req, res) => {
  const { rows } = await pool.query<Row>('select * from pets where id = $1', [Number(req.params.id)])
  if (rows.length === 0) res.status(404).json({ code: 'not_found', message: 'Pet not found', status: 404 })
  else res.json(toPet(rows[0]!))
})

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address() as { port: number }
  console.log(`Express peer on PostgreSQL on http://127.0.0.1:${address.port}/v1`)
})
