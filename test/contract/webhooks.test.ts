/**
 * Events are serialized with the envelope schemas the document's webhooks declare: a field a
 * maintainer adds to `Pet` (and maps in the pets repository, as docs/contract.md's maintainer path
 * says) is carried in pet events, in `data` and in `previous`, with no edit to the events.
 */
import t from 'tap'
import { parse, stringify } from 'yaml'
import { ApiDocument, apiDocument } from '../../src/contract/document.ts'
import { envelopeSerializers, type EventEnvelope } from '../../src/contract/webhooks.ts'
import { EMITTED_EVENTS } from '../../src/features/events/types.ts'

/** The service's own document after `change`. */
function edited (change: (document: any) => void): ApiDocument {
  const document = parse(apiDocument.yaml, { intAsBigInt: true })
  change(document)
  return new ApiDocument(stringify(document), 'spec/openapi.yaml')
}

const updated: EventEnvelope = {
  id: 'evt_AAAAAAAAAAAAAAAAAAAAAA',
  type: 'pet.updated',
  timestamp: '2026-11-26T10:00:00.000Z',
  sequence: 7,
  data: { id: 1, name: 'Rex', categoryId: 9223372036854775807n, status: 'sold', zzFixtureNickname: 'Rexy' },
  previous: { categoryId: 1, status: null, zzFixtureNickname: null }
}

t.test('a serializer for each declared type, each with the envelope\'s fields in the document\'s order', async (t) => {
  const serializers = envelopeSerializers(apiDocument)
  t.same([...serializers.keys()], Object.keys(EMITTED_EVENTS))
  t.equal(serializers.get('pet.updated')!(updated),
    '{"id":"evt_AAAAAAAAAAAAAAAAAAAAAA","type":"pet.updated","timestamp":"2026-11-26T10:00:00.000Z","sequence":7,' +
    '"data":{"id":1,"name":"Rex","categoryId":9223372036854775807,"status":"sold"},"previous":{"categoryId":1,"status":null}}',
    'what Pet does not declare is not sent; int64 digit for digit, null where a field was absent')
})

t.test('a field added to Pet is carried in data and in previous, with no other edit', async (t) => {
  const document = edited((d) => { d.components.schemas.Pet.properties.zzFixtureNickname = { type: 'string', description: 'A fixture\'s field.' } })
  const serialized = envelopeSerializers(document).get('pet.updated')!(updated)
  t.match(serialized, '"data":{"id":1,"name":"Rex","categoryId":9223372036854775807,"status":"sold","zzFixtureNickname":"Rexy"}')
  t.match(serialized, '"previous":{"categoryId":1,"status":null,"zzFixtureNickname":null}')
  const created = envelopeSerializers(document).get('pet.created')!({ ...updated, type: 'pet.created', previous: undefined })
  t.notMatch(created, 'previous', 'a type without previous never sends one')
  t.match(created, '"zzFixtureNickname":"Rexy"')
})
