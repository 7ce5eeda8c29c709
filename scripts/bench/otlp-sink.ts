/**
 * For the tracing rows of `npm run bench`: where a traced service sends its spans, in this
 * process. It takes OTLP/HTTP as the SDK sends it by default (protobuf), answers 200 at once
 * and keeps only the count of bytes, as a collector's front door does before its queue.
 */
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface OtlpSink {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string
  /** Export requests received. */
  readonly exports: number
  close: () => Promise<void>
}

export async function startOtlpSink (): Promise<OtlpSink> {
  let exports = 0
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      exports++
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get exports () { return exports },
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    }
  }
}
