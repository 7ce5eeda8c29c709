/**
 * What a log line never holds: a key of this service, wherever it appears in a URL it
 * carries, and the value of a credential-like query parameter (see ./logger.ts for where
 * it is applied).
 */

/**
 * A key of this service: `pst_` then base64url (features/api-keys/key-material.ts makes them;
 * a test holds the two together). Any length of it: a key cut short is still most of a secret.
 */
const KEY = /pst_[\w-]/

/**
 * The text with its `%XX` escapes undone, twice more for text escaped again. Each byte
 * becomes one character, which is all a key's ASCII shape needs, and a broken escape is
 * left as it is: this never throws.
 */
function unescaped (text: string): string {
  for (let round = 0; round < 3 && text.includes('%'); round++) {
    const next = text.replace(/%([\da-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    if (next === text) break
    text = next
  }
  return text
}

function holdsKey (text: string): boolean {
  return KEY.test(text) || (text.includes('%') && KEY.test(unescaped(text)))
}

// What comes between a scheme's `//` and the host: a user name, a password, or a token.
const USERINFO = /^([a-z][\w+.-]*:\/\/)[^/?#@]*@/i

/** Credentials before the host, and every path segment that holds a key, replaced whole. */
function redactPath (path: string): string {
  return path.replace(USERINFO, '$1[redacted]@').split('/').map((segment) => holdsKey(segment) ? '[redacted]' : segment).join('/')
}

/**
 * A query parameter that carries a credential when a client sends one in the wrong place.
 * Its name is compared lower-case, its escapes undone, without separators or array
 * indices (`api_key`, `apiKey`, `X-API-Key`, `api.key` and `api_key[]` are one name): it
 * holds token, secret, password, passphrase, session (or sessid), credential, signature,
 * authoriz(ation), bearer or auth (not author); it ends in key; or it is sig, sid, pass, pwd,
 * jwt or otp. Names of things that are not credentials (an idempotency key, a sort key)
 * are redacted with them: a value kept from the log costs less than a key written to it.
 */
const CREDENTIAL_NAME = /token|secret|passw|passphrase|sess(ion|id)|credential|signature|authoriz|bearer|auth(?!or)|key$|^(sig|sid|pass|pwd|jwt|otp)$/

/**
 * A credential-like name holds one of these as written, unless a separator splits a word
 * (`to_ken`), which is not one. Required of every name, so that a query holding none of them
 * can pass unsplit and the answer is still the same (MAYBE_CREDENTIAL).
 */
const NAME_WORDS = /key|tok|secret|pass|pwd|sess|sid|cred|sig|auth|bearer|jwt|otp/i

function credentialName (name: string): boolean {
  const plain = unescaped(name)
  return NAME_WORDS.test(plain) && CREDENTIAL_NAME.test(plain.replace(/\[\d*\]/g, '').replace(/[^\da-z]/gi, '').toLowerCase())
}

/** Each parameter's name when it holds a key; its value when it holds one or its name is credential-like. */
function redactQuery (query: string): string {
  return query.split('&').map((pair) => {
    const equals = pair.indexOf('=')
    if (equals === -1) return holdsKey(pair) ? '[redacted]' : pair
    const name = pair.slice(0, equals)
    const value = pair.slice(equals + 1)
    const secretValue = value !== '' && (credentialName(name) || holdsKey(value))
    return `${holdsKey(name) ? '[redacted]' : name}=${secretValue ? '[redacted]' : value}`
  }).join('&')
}

// A query with no key, no escape and no word of a credential-like name anywhere has nothing
// to redact: the common case (`?limit=20`), checked without splitting it.
const MAYBE_CREDENTIAL = new RegExp(`pst_|%|${NAME_WORDS.source}`, 'i')

/** A path that may hold a key, or, not starting with `/` (a URL in absolute form), credentials before its host. */
function mayHoldCredential (path: string): boolean {
  return path.includes('pst_') || path.includes('%') || (path.charCodeAt(0) !== 47 && path.includes('@'))
}

/**
 * The URL as a log line may hold it. A path like `/v1/pets/42`, and a query without a word
 * a credential's name or a key needs, are kept as they are, uncopied: the URL of nearly
 * every request.
 */
export function redactUrl (url: string): string {
  const start = url.indexOf('?')
  const path = start === -1 ? url : url.slice(0, start)
  const loggedPath = mayHoldCredential(path) ? redactPath(path) : path
  if (start === -1) return loggedPath
  const query = url.slice(start + 1)
  if (MAYBE_CREDENTIAL.test(query)) return `${loggedPath}?${redactQuery(query)}`
  return loggedPath === path ? url : `${loggedPath}?${query}`
}

// The words of free text a URL or a key can be (quotes and brackets around one are not part of it).
const WORD = /[^\s"'`()<>[\]{}]+/g

/**
 * Free text, an error's message or stack: each word of it as redactUrl leaves it, so a URL
 * quoted keeps its shape with its credentials redacted, and any other word holding a key is
 * replaced whole. Text without `?`, `%`, `@` or `pst_` holds neither, and is kept as it is.
 */
export function redactText (text: string): string {
  if (!text.includes('?') && !text.includes('%') && !text.includes('@') && !text.includes('pst_')) return text
  return text.replace(WORD, (word) => redactUrl(word))
}
