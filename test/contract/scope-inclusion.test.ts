/**
 * Which scopes include others, read from their names alone: `X:write` includes `X:read`
 * when both are listed, so scopes added later follow without an edit.
 */
import t from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import { declaredScopes } from '../../src/contract/operation-security.ts'
import { effectiveScopes, includedScopes, scopesIncluding } from '../../src/contract/scope-inclusion.ts'

const LATER = ['pets:read', 'pets:write', 'events:read', 'events:write', 'webhooks:write', 'audit:read', 'reports:read:write']

t.test('a :write scope includes the :read scope of its resource when that is listed, and nothing else', async (t) => {
  t.same(includedScopes('pets:write', LATER), ['pets:read'])
  t.same(includedScopes('events:write', LATER), ['events:read'], 'a scope added later follows')
  t.same(includedScopes('webhooks:write', LATER), [], 'no webhooks:read is listed')
  t.same(includedScopes('pets:read', LATER), [], 'a read scope includes no write')
  t.same(includedScopes('audit:read', LATER), [])
  t.same(includedScopes('reports:read:write', LATER), [], 'reports:read:read is not listed')
  t.same([...scopesIncluding(LATER)], [['pets:read', ['pets:write']], ['events:read', ['events:write']]])
})

t.test('what a key may do: the scopes it holds and those they include, in the document\'s order', async (t) => {
  t.same(effectiveScopes(['events:write', 'pets:read'], LATER), ['pets:read', 'events:read', 'events:write'])
  t.same(effectiveScopes(['webhooks:write'], LATER), ['webhooks:write'])
  t.same(effectiveScopes(['pets:write', 'gone:read'], LATER), ['pets:read', 'pets:write', 'gone:read'], 'a scope no longer listed is still shown, last')
})

t.test('the document says, in each scope\'s description, what the scope includes', async (t) => {
  const scopes = declaredScopes(apiDocument)
  const declared = [...scopes.keys()]
  // Every X:read whose X:write is declared too; one known pair checked by name.
  const paired = declared.filter((scope) => scope.endsWith(':read') && declared.includes(scope.replace(/:read$/, ':write')))
  t.same([...scopesIncluding(declared).keys()], paired)
  t.ok(paired.includes('pets:read'))
  for (const [scope, allows] of scopes) {
    const included = includedScopes(scope, declared)
    if (included.length === 0) t.notMatch(allows, /includes/, scope)
    else t.match(allows, new RegExp(`; includes ${included.join(', ')}\\.$`), scope)
  }
})
