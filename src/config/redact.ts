/**
 * What a log line never holds: the value of a credential-like query parameter, in any URL it
 * carries (see ./logger.ts for where it is applied).
 */

// Query parameters that carry a credential when a client sends one in the wrong place.
const CREDENTIAL_PARAMETER = /^(api[-_]?key|key|access[-_]?token|refresh[-_]?token|id[-_]?token|token|auth|authorization|bearer|password|passwd|secret|client[-_]?secret)$/i

function decodedName (name: string): string {
  try { return decodeURIComponent(name.replaceAll('+', ' ')) } catch { return name }
}

// A query with no escapes and no credential-like name anywhere has nothing to redact: the
// common case (`?limit=20`), checked without splitting it.
const MAYBE_CREDENTIAL = /key|token|auth|bearer|pass|secret|[%+]/i

/** The URL with the value of every credential-like query parameter replaced. */
export function redactUrl (url: string): string {
  const start = url.indexOf('?')
  if (start === -1 || !MAYBE_CREDENTIAL.test(url.slice(start))) return url
  const query = url.slice(start + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=')
    const name = equals === -1 ? pair : pair.slice(0, equals)
    return CREDENTIAL_PARAMETER.test(decodedName(name)) ? `${name}=[redacted]` : pair
  })
  return `${url.slice(0, start)}?${query.join('&')}`
}
