/**
 * What a failed start says (src/config/start-failure.ts) for the causes a process cannot easily
 * be made to meet in a test (test/process/server.test.ts starts the real entry point for the others),
 * and how a database is named in it.
 */
import t from 'tap'
import { describeDatabase } from '../../src/database/url.ts'
import { startFailure } from '../../src/config/start-failure.ts'

const listenError = (code: string) => Object.assign(new Error(`listen ${code}`), { code, syscall: 'listen', address: '10.1.2.3', port: 80 })

t.test('a listen error says what to change', async (t) => {
  t.equal(startFailure(listenError('EADDRINUSE')), 'port 80 on 10.1.2.3 is already in use; stop what holds it, or set PORT to another')
  t.equal(startFailure(listenError('EADDRINUSE'), 'METRICS_PORT'), 'port 80 on 10.1.2.3 is already in use; stop what holds it, or set METRICS_PORT to another')
  t.equal(startFailure(listenError('EACCES')), 'not allowed to listen on port 80; ports below 1024 need privileges, set PORT to 1024 or above')
  t.equal(startFailure(listenError('EADDRNOTAVAIL')), '10.1.2.3 is not an address of this machine; set HOST to one that is, or to 0.0.0.0')
})

t.test('any other error is its message', async (t) => {
  t.equal(startFailure(Object.assign(new Error('permission denied, open x'), { code: 'EACCES', syscall: 'open' })), 'permission denied, open x')
  t.equal(startFailure('a string'), 'a string')
})

t.test('a database is named without its credentials', async (t) => {
  t.equal(describeDatabase('sqlite:data/petstore.db'), 'data/petstore.db')
  t.equal(describeDatabase(':memory:'), ':memory:')
  t.equal(describeDatabase('postgres://app:fake-password@db.internal:5432/petstore?sslmode=require&password=fake'), 'postgres://db.internal:5432/petstore')
  t.equal(describeDatabase('postgresql://app:fake@host:no-port/db'), 'the PostgreSQL database')
})
