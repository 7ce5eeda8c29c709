/**
 * What the Markdown guides show, read from the files themselves, for the tests that run a
 * guide's snippets as written: its fenced code blocks, and the text of one section.
 */
import { readFileSync } from 'node:fs'

const root = new URL('../../', import.meta.url)

export interface CodeBlock {
  /** The fence's info string's first word: `js`, `sh`, or '' for none. */
  lang: string
  /** The block's text, without its fences, ending in a newline. */
  code: string
  /** Its first line's number in the file, the opening fence's. */
  line: number
}

/** The text of a Markdown file of the repository (`docs/api/README.md`). */
export function markdown (path: string): string {
  return readFileSync(new URL(path, root), 'utf8')
}

/**
 * The fenced code blocks of a Markdown text, in order. Fences as the guides write them: three
 * or more backticks or tildes, closed by the same.
 */
export function codeBlocks (text: string): CodeBlock[] {
  const blocks: CodeBlock[] = []
  let open: { fence: string, lang: string, line: number, lines: string[] } | undefined
  for (const [index, line] of text.split('\n').entries()) {
    if (open === undefined) {
      const fence = /^ {0,3}(`{3,}|~{3,})\s*(\S*)/.exec(line)
      if (fence !== null) open = { fence: fence[1]!, lang: fence[2]!, line: index + 1, lines: [] }
    } else if (line.trim().startsWith(open.fence) && line.trim().replaceAll(open.fence[0]!, '') === '') {
      blocks.push({ lang: open.lang, code: open.lines.map((text) => `${text}\n`).join(''), line: open.line })
      open = undefined
    } else {
      open.lines.push(line)
    }
  }
  return blocks
}

/** The one code block of `path` in `lang` that holds `marker`: a test fails when there are none or several. */
export function codeBlock (path: string, lang: string, marker: string): CodeBlock {
  const found = codeBlocks(markdown(path)).filter((block) => block.lang === lang && block.code.includes(marker))
  if (found.length !== 1) throw new Error(`${path} has ${found.length} ${lang} blocks holding ${JSON.stringify(marker)}, not one`)
  return found[0]!
}

/**
 * The text under the heading `title` of a Markdown text, to the next heading of its level or
 * above; a `#` line inside a code block is no heading.
 */
export function section (text: string, title: string): string {
  const lines = text.split('\n')
  const fenced = fencedLines(text)
  const levelOf = (index: number) => fenced.has(index) ? 0 : /^(#{1,6}) /.exec(lines[index]!)?.[1]!.length ?? 0
  const start = lines.findIndex((line, index) => levelOf(index) > 0 && line.replace(/^#+ /, '') === title)
  if (start === -1) throw new Error(`no heading ${JSON.stringify(title)}`)
  const end = lines.findIndex((_, index) => index > start && levelOf(index) > 0 && levelOf(index) <= levelOf(start))
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n')
}

/** The indexes of the lines inside fenced code blocks, fences included. */
function fencedLines (text: string): Set<number> {
  const lines = new Set<number>()
  for (const block of codeBlocks(text)) {
    const count = block.code.split('\n').length + 1
    for (let index = block.line - 1; index < block.line - 1 + count; index++) lines.add(index)
  }
  return lines
}
