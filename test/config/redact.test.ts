import t from 'tap'
import { redactUrl } from '../../src/config/redact.ts'
import { generateKey } from '../../src/features/api-keys/key-material.ts'

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

t.test('a key of this service is redacted wherever it appears in the URL, escaped or not', async (t) => {
  const key = generateKey()
  const rest = key.slice('pst_'.length)
  const cases: Array<[string, string]> = [
    [`/v1/pets/${key}`, '/v1/pets/[redacted]'],
    [`/v1/pets/${key}/orders?limit=5`, '/v1/pets/[redacted]/orders?limit=5'],
    [`/v1/${key}`, '/v1/[redacted]'],
    [`/v1/pets/x${key}.json`, '/v1/pets/[redacted]'],
    [`/v1/pets?limit=5&cursor=${key}`, '/v1/pets?limit=5&cursor=[redacted]'],
    [`/v1/pets?name=Bearer+${key}`, '/v1/pets?name=[redacted]'],
    [`/v1/pets?status=available&tags[]=${key}`, '/v1/pets?status=available&tags[]=[redacted]'],
    [`/v1/pets?${key}`, '/v1/pets?[redacted]'],
    [`/v1/pets?${key}=1`, '/v1/pets?[redacted]=1'],
    [`/v1/pets?a=1&b=${key}&c=3`, '/v1/pets?a=1&b=[redacted]&c=3'],
    // Escaped: the underscore, the whole key, lower-case hex, escaped twice, and with a broken escape beside it.
    [`/v1/pets/pst%5F${rest}`, '/v1/pets/[redacted]'],
    [`/v1/pets/pst%5f${rest}`, '/v1/pets/[redacted]'],
    [`/v1/pets/${[...key].map((c) => '%' + c.charCodeAt(0).toString(16)).join('')}`, '/v1/pets/[redacted]'],
    [`/v1/pets/pst%255F${rest}`, '/v1/pets/[redacted]'],
    [`/v1/pets/${key}%zz`, '/v1/pets/[redacted]'],
    [`/v1/pets?q=%70st_${rest}`, '/v1/pets?q=[redacted]'],
    [`/v1/pets?q=pst%5F${rest}&limit=5`, '/v1/pets?q=[redacted]&limit=5'],
    // What `keys list` shows is redacted as well: a key cut short is still most of a secret.
    ['/v1/pets?q=pst_abcdef', '/v1/pets?q=[redacted]'],
    // Not a key.
    ['/v1/pets?name=pst_', '/v1/pets?name=pst_'],
    ['/v1/pets?name=Pst', '/v1/pets?name=Pst'],
    ['/v1/pets/a%20b?name=post_man', '/v1/pets/a%20b?name=post_man'],
    ['/v1/pets/%zz', '/v1/pets/%zz']
  ]
  for (const [url, logged] of cases) t.equal(redactUrl(url), logged, url)
})

t.test('every key the service makes has the shape the redaction looks for', async (t) => {
  for (let i = 0; i < 200; i++) {
    const key = generateKey()
    t.equal(redactUrl(`/v1/pets/${key}?q=${key}`), '/v1/pets/[redacted]?q=[redacted]', key.slice(0, 8))
  }
})
