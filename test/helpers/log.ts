/**
 * A log that keeps what the app writes, for the tests that read it.
 */

/**
 * `stream` is for the app's `logger` option (with the level and any other option the test
 * wants); `lines` holds each line written, parsed; `text()` everything, as written.
 */
export function captureLog<Line = Record<string, any>> () {
  const lines: Line[] = []
  let text = ''
  const stream = {
    write (line: string) {
      text += line
      lines.push(JSON.parse(line))
    }
  }
  return { stream, lines, text: () => text }
}
