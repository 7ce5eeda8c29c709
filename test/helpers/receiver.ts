/**
 * A webhook receiver on 127.0.0.1 for one test, closed when it ends: it keeps every request
 * (headers and body as text) and answers as the test says, a status (with headers) or no
 * answer at all (`hang`), which it can change at any time; or as a function of how many
 * requests it has received, this one included, for answers that must not race the retries
 * (fail twice, then succeed), and of the request's path (endpoints on one origin).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'

export interface Received {
  headers: IncomingHttpHeaders
  body: string
  /** The sender's port: the same for requests on one connection. */
  port: number
}

export type Answer = { status: number, headers?: Record<string, string> } | 'hang'

export interface Receiver {
  url: string
  received: Received[]
  answer: Answer | ((count: number, path: string) => Answer)
  /** Requests it has not answered (`hang`). */
  readonly hanging: number
}

export async function startReceiver (t: Test, answer: Receiver['answer'] = { status: 204 }, path = '/hooks'): Promise<Receiver> {
  const held = new Set<ServerResponse>()
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => { body += chunk })
    request.on('end', () => {
      receiver.received.push({ headers: request.headers, body, port: request.socket.remotePort! })
      const now = typeof receiver.answer === 'function' ? receiver.answer(receiver.received.length, request.url ?? '/') : receiver.answer
      if (now === 'hang') {
        held.add(response)
        response.on('close', () => held.delete(response))
        return
      }
      response.writeHead(now.status, now.headers).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received: [],
    answer,
    get hanging () { return held.size }
  }
  t.teardown(async () => {
    for (const response of held) response.destroy()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return receiver
}
