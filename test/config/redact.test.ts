import t from 'tap'
import { redactUrl } from '../../src/config/redact.ts'

t.test('credentials sent in the query are redacted from logged URLs', async (t) => {
  const cases: Array<[string, string]> = [
    ['/v1/pets', '/v1/pets'],
    ['/v1/pets?limit=5', '/v1/pets?limit=5'],
    ['/v1/pets?api_key=pst_secret&limit=5', '/v1/pets?api_key=[redacted]&limit=5'],
    ['/v1/pets?limit=5&access_token=abc&token=def', '/v1/pets?limit=5&access_token=[redacted]&token=[redacted]'],
    ['/v1/pets?API-KEY=x&apikey=y&key=z&password=p&client_secret=s', '/v1/pets?API-KEY=[redacted]&apikey=[redacted]&key=[redacted]&password=[redacted]&client_secret=[redacted]'],
    ['/v1/pets?api%5Fkey=x', '/v1/pets?api%5Fkey=[redacted]'],
    ['/v1/pets?keys=1&monkey=2', '/v1/pets?keys=1&monkey=2']
  ]
  for (const [url, logged] of cases) t.equal(redactUrl(url), logged, url)
})
