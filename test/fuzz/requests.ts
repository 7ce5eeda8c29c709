/**
 * Requests derived from one operation of an OpenAPI document: its path, query and header
 * parameters (the path item's and its own, as ApiDocument.parameters merges them) and its
 * request body under each media type it is declared under, sent with that Content-Type.
 * `validRequest` makes requests the document accepts; `mutatedRequest` makes a valid one
 * and changes one thing in it that the service must refuse with a 400. A parameter, a body
 * field or a media type added to the document is exercised with no change here.
 */
import fc from 'fast-check'
import { stringify } from 'lossless-json'
import type { ApiDocument, JsonObject } from '../../src/contract/document.ts'
import { BODY_MEDIA_TYPES } from '../../src/http/media-type.ts'
import { invalidBody, valid, type Schema } from './arbitraries.ts'
import { invalidParameter, percentEncode, sentAs, validParameter, type Parameter, type Sent } from './parameters.ts'

export interface FuzzRequest {
  operationId: string
  method: string
  url: string
  /** The header parameters sent, and the body's Content-Type. */
  headers: Record<string, string>
  payload?: string
  /** The parameter values sent, typed, by name (header names in lower case). */
  values: Record<string, unknown>
  /** The body sent, and the media type it was sent as. */
  body?: { mediaType: string, value: unknown }
}

export interface MutatedRequest extends FuzzRequest {
  /** What was changed: `query tag`, `path petId`, `header idempotency-key`, `body`, ... */
  mutation: string
  /** What the refusal's message starts with: the part of the request it names. */
  names: RegExp
}

export interface Inputs {
  method: string
  /** The served path, parameters in braces: `/v1/pets/{petId}`. */
  path: string
  parameters: Parameter[]
  bodies: Array<{ mediaType: string, schema: Schema }>
}

/** What an operation takes, as its document declares it. */
export function inputsOf (document: ApiDocument, operationId: string): Inputs {
  const { method, path, operation } = document.operation(operationId)
  const parameters = document.parameters(operationId).map((parameter): Parameter => ({
    // Node gives header names in lower case.
    name: parameter.in === 'header' ? String(parameter.name).toLowerCase() : String(parameter.name),
    in: parameter.in as Parameter['in'],
    required: parameter.required === true,
    schema: parameter.schema as Schema
  }))
  const content = ((document.dereference(operation.requestBody ?? null) as JsonObject | null)?.content ?? {}) as Record<string, { schema?: Schema }>
  const bodies = Object.entries(content).map(([mediaType, media]) => ({ mediaType, schema: media.schema ?? {} }))
  return { method, path: document.prefix + path, parameters, bodies }
}

/** A test's own choices, in place of what the schemas give. */
export interface Choices {
  /** Values of a parameter by name (a cursor the service made, an id that exists); undefined leaves it out. */
  parameters?: Record<string, fc.Arbitrary<unknown>>
  /** Bodies for a media type's schema. */
  body?: (schema: Schema, mediaType: string) => fc.Arbitrary<unknown>
}

/** A request in the making: each parameter's wire text, the body. */
interface Draft {
  sent: Map<Parameter, Sent | undefined>
  /** Query pairs beyond the declared parameters' own (an unknown name, a second value). */
  extraQuery: Array<[string, string]>
  body?: { mediaType: string, value: unknown, payload?: string }
}

function request (operationId: string, inputs: Inputs, draft: Draft): FuzzRequest {
  const sent = [...draft.sent].filter((entry): entry is [Parameter, Sent] => entry[1] !== undefined)
  const path = inputs.path.replace(/\{([^}]+)\}/g, (_, name: string) => sent.find(([p]) => p.in === 'path' && p.name === name)?.[1].wire ?? '')
  const query = [...sent.filter(([p]) => p.in === 'query').map(([p, { wire }]): [string, string] => [percentEncode(p.name), wire]), ...draft.extraQuery]
  const headers = Object.fromEntries(sent.filter(([p]) => p.in === 'header').map(([p, { wire }]) => [p.name, wire]))
  const { body } = draft
  return {
    operationId,
    method: inputs.method,
    url: path + (query.length === 0 ? '' : `?${query.map(([name, value]) => `${name}=${value}`).join('&')}`),
    headers: body === undefined ? headers : { ...headers, 'content-type': body.mediaType },
    ...(body !== undefined && { payload: body.payload ?? stringify(body.value) as string, body: { mediaType: body.mediaType, value: body.value } }),
    values: Object.fromEntries(sent.map(([p, { value }]) => [p.name, value]))
  }
}

function validDraft (inputs: Inputs, choices: Choices): fc.Arbitrary<Draft> {
  const values = inputs.parameters.map((parameter) => {
    const chosen = choices.parameters?.[parameter.name]
    if (chosen !== undefined) return chosen.map((value) => value === undefined ? undefined : sentAs(parameter, value))
    return parameter.required ? validParameter(parameter) : fc.option(validParameter(parameter), { nil: undefined, freq: 2 })
  })
  const body = inputs.bodies.length === 0
    ? fc.constant(undefined)
    : fc.oneof(...inputs.bodies.map(({ mediaType, schema }) => (choices.body?.(schema, mediaType) ?? valid(schema)).map((value) => ({ mediaType, value }))))
  return fc.tuple(fc.tuple(...values), body).map(([sent, chosenBody]) => ({
    sent: new Map(inputs.parameters.map((parameter, i) => [parameter, sent[i]])),
    extraQuery: [],
    ...(chosenBody !== undefined && { body: chosenBody })
  }))
}

/** Requests the document accepts for the operation: every parameter, each optional one sent or not, and a body under each media type. */
export function validRequest (document: ApiDocument, operationId: string, choices: Choices = {}): fc.Arbitrary<FuzzRequest> {
  const inputs = inputsOf(document, operationId)
  return validDraft(inputs, choices).map((draft) => request(operationId, inputs, draft))
}

interface Mutation { mutation: string, names: RegExp, change: (draft: Draft) => Draft }

const NAMES: Record<Parameter['in'], RegExp> = {
  query: /^querystring/,
  // A segment that decodes to no UTF-8 is refused by the router, before any parameter is read.
  path: /^params\/|is not a valid url component$/,
  header: /^headers/
}

const withSent = (draft: Draft, parameter: Parameter, sent: Sent | undefined): Draft => ({ ...draft, sent: new Map(draft.sent).set(parameter, sent) })

/** Each single change to a valid request of the operation that the document refuses. */
function mutations (inputs: Inputs): Array<fc.Arbitrary<Mutation>> {
  const found: Array<fc.Arbitrary<Mutation>> = []
  for (const parameter of inputs.parameters) {
    const where = `${parameter.in} ${parameter.name}`
    const names = NAMES[parameter.in]
    const refused = invalidParameter(parameter)
    if (refused !== undefined) {
      found.push(refused.map((wire) => ({ mutation: where, names, change: (draft) => withSent(draft, parameter, { value: undefined, wire }) })))
    }
    if (parameter.in === 'query') {
      // form style reads one value: a second makes a list, which no scalar schema takes.
      found.push(fc.tuple(validParameter(parameter), validParameter(parameter)).map(([first, second]) => ({
        mutation: `${where} twice`, names, change: (draft) => ({ ...withSent(draft, parameter, first), extraQuery: [[percentEncode(parameter.name), second.wire]] })
      })))
    }
    if (parameter.required && parameter.in !== 'path') {
      found.push(fc.constant({ mutation: `${where} left out`, names, change: (draft) => withSent(draft, parameter, undefined) }))
    }
  }
  // Unknown query parameters are refused, so a typo never widens a listing.
  const declared = new Set(inputs.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name))
  found.push(fc.string({ minLength: 1, maxLength: 10 }).filter((name) => !declared.has(name)).map((name) => ({
    mutation: 'query: an undeclared parameter', names: NAMES.query, change: (draft) => ({ ...draft, extraQuery: [[percentEncode(name), '1']] })
  })))
  for (const { mediaType, schema } of inputs.bodies) {
    found.push(invalidBody(schema).map((value) => ({ mutation: `body (${mediaType})`, names: /^body/, change: (draft) => ({ ...draft, body: { mediaType, value } }) })))
  }
  const [first] = inputs.bodies
  if (first !== undefined) {
    const { schema } = first
    for (const mediaType of BODY_MEDIA_TYPES.filter((type) => !inputs.bodies.some((body) => body.mediaType === type))) {
      found.push(valid(schema).map((value) => ({ mutation: `body as ${mediaType}, not declared`, names: /^Content-Type must be/, change: (draft) => ({ ...draft, body: { mediaType, value } }) })))
    }
  }
  return found
}

/** A valid request of the operation with one thing changed that the document refuses. */
export function mutatedRequest (document: ApiDocument, operationId: string, choices: Choices = {}): fc.Arbitrary<MutatedRequest> {
  const inputs = inputsOf(document, operationId)
  return fc.tuple(validDraft(inputs, choices), fc.oneof(...mutations(inputs))).map(([draft, { mutation, names, change }]) =>
    ({ ...request(operationId, inputs, change(draft)), mutation, names }))
}
