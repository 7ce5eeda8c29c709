import t from 'tap'
import { redactText, redactUrl } from '../../src/config/redact.ts'
import { generateKey } from '../../src/features/api-keys/key-material.ts'

t.test('credentials sent in the query are redacted from logged URLs', async (t) => {
  const cases: Array<[string, string]> = [
    ['/v1/pets', '/v1/pets'],
    ['/v1/pets?limit=5', '/v1/pets?limit=5'],
    ['/v1/pets?api_key=pst_secret&limit=5', '/v1/pets?api_key=[redacted]&limit=5'],
    ['/v1/pets?limit=5&access_token=abc&token=def', '/v1/pets?limit=5&access_token=[redacted]&token=[redacted]'],
    ['/v1/pets?API-KEY=x&apikey=y&key=z&password=p&client_secret=s', '/v1/pets?API-KEY=[redacted]&apikey=[redacted]&key=[redacted]&password=[redacted]&client_secret=[redacted]'],
    ['/v1/pets?api%5Fkey=x', '/v1/pets?api%5Fkey=[redacted]'],
    // Escaped names, and an empty value or no value at all: nothing to hide there.
    ['/v1/pets?%61pi_key=x&access_token%5B%5D=y&to%6Ben=z', '/v1/pets?%61pi_key=[redacted]&access_token%5B%5D=[redacted]&to%6Ben=[redacted]'],
    ['/v1/pets?token=&api_key&limit=5', '/v1/pets?token=&api_key&limit=5'],
    // Not credentials: the service's own parameters, and names that only look a little like one.
    ['/v1/pets?limit=5&status=sold&cursor=abc', '/v1/pets?limit=5&status=sold&cursor=abc'],
    ['/v1/pets?keys=1&keyword=2&author=3&signal=4&passenger=5&sidebar=6', '/v1/pets?keys=1&keyword=2&author=3&signal=4&passenger=5&sidebar=6']
  ]
  for (const [url, logged] of cases) t.equal(redactUrl(url), logged, url)
})

t.test('a credential-like name is one whatever its case, separators or array suffix', async (t) => {
  const names = [
    'api_key', 'apiKey', 'api-key', 'API_KEY', 'ApiKey', 'apikey', 'api.key', 'api+key', 'x-api-key', 'X-API-Key', 'x_api_key',
    'key', 'KEY', 'key[]', 'api_key[0]', 'private_key', 'subscription-key', 'Ocp-Apim-Subscription-Key', 'accessKey', 'signing_key',
    'token', 'Token', 'api_token', 'apiToken', 'API-TOKEN', 'access_token', 'access_token[]', 'ACCESS_TOKEN[]', 'accessToken',
    'refresh_token', 'id_token', 'auth_token', 'oauth_token', 'x-auth-token', 'X-Amz-Security-Token', 'csrf_token', 'token[0]',
    'session', 'Session', 'sessionid', 'session_id', 'SessionId', 'JSESSIONID', 'PHPSESSID', 'sess_id', 'sid', 'session_token',
    'password', 'Password', 'PASSWORD', 'pass_word', 'passwd', 'pass', 'pwd', 'passphrase', 'user[password]', 'new-password',
    'secret', 'client_secret', 'clientSecret', 'Client-Secret', 'app_secret', 'secret_key', 'SECRET[]',
    'auth', 'Auth', 'authorization', 'Authorization', 'oauth', 'basic_auth', 'x-authorization', 'bearer', 'Bearer', 'jwt', 'otp',
    'signature', 'Signature', 'sig', 'SIG', 'X-Amz-Signature', 'x-goog-signature', 'credential', 'credentials', 'X-Amz-Credential'
  ]
  for (const name of names) t.equal(redactUrl(`/v1/pets?limit=5&${name}=s3cr3t`), `/v1/pets?limit=5&${name}=[redacted]`, name)
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

t.test('credentials before the host of a URL in absolute form are redacted', async (t) => {
  const cases: Array<[string, string]> = [
    ['http://ann:hunter2@petstore.example/v1/pets?limit=5', 'http://[redacted]@petstore.example/v1/pets?limit=5'],
    ['https://token@petstore.example/v1/pets', 'https://[redacted]@petstore.example/v1/pets'],
    ['http://petstore.example/v1/pets/@ann', 'http://petstore.example/v1/pets/@ann'],
    ['/v1/pets/@ann?q=a@b', '/v1/pets/@ann?q=a@b']
  ]
  for (const [url, logged] of cases) t.equal(redactUrl(url), logged, url)
})

t.test('every key the service makes has the shape the redaction looks for', async (t) => {
  for (let i = 0; i < 200; i++) {
    const key = generateKey()
    t.equal(redactUrl(`/v1/pets/${key}?q=${key}`), '/v1/pets/[redacted]?q=[redacted]', key.slice(0, 8))
  }
})

t.test('free text keeps its words, the URLs it quotes redacted and any word holding a key replaced', async (t) => {
  const key = generateKey()
  const cases: Array<[string, string]> = [
    ['internal error', 'internal error'],
    ['Is it 50% done? Yes.', 'Is it 50% done? Yes.'],
    [`querystring must NOT have additional property '${key}'`, 'querystring must NOT have additional property \'[redacted]\''],
    ['in "/v1/pets?access_token=abc&limit=5" (GET)?', 'in "/v1/pets?access_token=[redacted]&limit=5" (GET)?'],
    [`GET https://upstream.example/${key}/x?sig=abc\n    at f (file:///srv/app.js:1:2)`, 'GET https://upstream.example/[redacted]/x?sig=[redacted]\n    at f (file:///srv/app.js:1:2)'],
    [`key=${key}, user=ann`, '[redacted] user=ann'],
    [`[${key.replace('_', '%5F')}]`, '[[redacted]]'],
    ['connect ECONNREFUSED postgres://app:hunter2@db:5432/pets?sslmode=require', 'connect ECONNREFUSED postgres://[redacted]@db:5432/pets?sslmode=require'],
    ['clone https://ghp_abc123@github.com/o/r.git failed for ann@example.com', 'clone https://[redacted]@github.com/o/r.git failed for ann@example.com']
  ]
  for (const [text, logged] of cases) t.equal(redactText(text), logged, text)
})
