/**
 * `npm run check:links [-- ROOT]`: every relative link of the Markdown files under ROOT (the
 * repository by default) resolves. `[text](path)` must name a file or folder that exists,
 * and `[text](path#anchor)` or `[text](#anchor)` a heading of that Markdown file, by the slug
 * GitHub gives it. Links with a scheme (`https:`, `mailto:`) are not followed, and nothing
 * inside code (fenced blocks, inline code) or an HTML comment is read as a link or a heading.
 * Exits 1 with each broken link as `file:line: link (why)`, else prints one line and exits 0.
 *
 * Headings are ATX headings (`## Title`), the project's style; an indented code block is not
 * told apart from a list item's continuation without a whole Markdown parser, and the
 * project writes fenced blocks only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const USAGE = 'usage: npm run check:links [-- ROOT]'

/** Folders of what tools make or install, not what people write. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.tap', 'coverage', 'test-results', 'data'])

const MARKDOWN = /\.(?:md|markdown)$/i

interface Link { line: number, destination: string }

/** Every Markdown file under `dir`, sorted, skipping the folders above. */
function markdownFiles (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name < b.name ? -1 : 1)
    .flatMap((entry) => {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : markdownFiles(path)
      return entry.isFile() && MARKDOWN.test(entry.name) ? [path] : []
    })
}

/** Which lines are inside a fenced code block, its fences included. */
function fencedLines (lines: string[]): boolean[] {
  let open: { char: string, length: number } | undefined
  return lines.map((line) => {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line)
    if (open === undefined) {
      if (fence !== null && !(fence[1]![0] === '`' && fence[2]!.includes('`'))) open = { char: fence[1]![0]!, length: fence[1]!.length }
      return open !== undefined
    }
    // A fence closes with the same character, at least as many, and nothing after it.
    if (fence !== null && fence[1]![0] === open.char && fence[1]!.length >= open.length && fence[2]!.trim() === '') open = undefined
    return true
  })
}

/** `text` with `from`..`to` replaced by spaces, newlines kept, so positions stay where they were. */
function blank (text: string, from: number, to: number): string {
  return text.slice(0, from) + text.slice(from, to).replace(/[^\n]/g, ' ') + text.slice(to)
}

/** The text with code, fenced or inline, and HTML comments blanked out. */
function withoutCode (text: string): string {
  const lines = text.split('\n')
  const fenced = fencedLines(lines)
  let out = lines.map((line, i) => fenced[i] ? '' : line).join('\n')
  out = out.replace(/<!--[^]*?-->/g, (comment) => comment.replace(/[^\n]/g, ' '))
  // A code span is a run of backticks closed by a run of the same length, within a paragraph.
  const run = /(?<!\\)`+/g
  for (let match = run.exec(out); match !== null; match = run.exec(out)) {
    const close = new RegExp(`(?<!\`)${match[0]}(?!\`)`, 'g')
    close.lastIndex = match.index + match[0].length
    const end = close.exec(out)
    if (end === null || /\n[ \t]*\n/.test(out.slice(match.index, end.index))) continue
    out = blank(out, match.index, end.index + end[0].length)
    run.lastIndex = end.index + end[0].length
  }
  return out
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** A heading's text as GitHub renders it: code kept without its backticks, markup dropped. */
function headingText (source: string): string {
  return source.split(/(`+[^`]*`+)/).map((part, i) => {
    if (i % 2 === 1) return part.replace(/^`+\s?|\s?`+$/g, '')
    return part
      .replace(/!?\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])?/g, '$1')
      .replace(/<[^>]*>/g, '')
      .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => name[0] === '#'
        ? String.fromCodePoint(Number(name[1]!.toLowerCase() === 'x' ? `0${name.slice(1)}` : name.slice(1)))
        : ENTITIES[name.toLowerCase()] ?? entity)
      .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      .replace(/\*+/g, '')
      // Emphasis by underscores, not the underscores inside a word (snake_case).
      .replace(/(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}]|$)/gu, '$1')
  }).join('').trim()
}

/** GitHub's slug (github-slugger): lowercase, punctuation but `-` and `_` dropped, spaces to `-`. */
function slug (text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
}

/** The anchors a Markdown text has: its headings' slugs, `-1`, `-2`... for repeats, and HTML ids. */
function anchorsOf (text: string): Set<string> {
  const lines = text.split('\n')
  const fenced = fencedLines(lines)
  const occurrences = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [i, line] of lines.entries()) {
    const heading = fenced[i] ? null : /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line)
    if (heading === null) continue
    const base = slug(headingText(heading[1] ?? ''))
    let unique = base
    while (occurrences.has(unique)) {
      occurrences.set(base, occurrences.get(base)! + 1)
      unique = `${base}-${occurrences.get(base)}`
    }
    occurrences.set(unique, 0)
    anchors.add(unique)
  }
  for (const [, id] of withoutCode(text).matchAll(/<[a-z][^>]*\s(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(id!)
  return anchors
}

/** Every link of a Markdown text, inline (`[text](destination)`) or defined (`[label]: destination`). */
function linksOf (text: string): Link[] {
  const masked = withoutCode(text)
  const lineAt = (index: number) => masked.slice(0, index).split('\n').length
  const links: Link[] = []
  const opening = /(?<!\\)!?\[(?:[^[\]\n]|\n(?![ \t]*\n)|\[[^[\]]*\])*\]\(/g
  const rest = /[ \t]*\n?[ \t]*(<[^<>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)(?:[ \t]*\n?[ \t]*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?[ \t]*\n?[ \t]*\)/y
  for (let match = opening.exec(masked); match !== null; match = opening.exec(masked)) {
    rest.lastIndex = match.index + match[0].length
    const destination = rest.exec(masked)
    if (destination !== null) links.push({ line: lineAt(rest.lastIndex - 1), destination: destination[1]!.replace(/^<|>$/g, '') })
    // On from just inside the brackets: an image in a link's text is a link of its own.
    opening.lastIndex = match.index + (match[0].startsWith('!') ? 2 : 1)
  }
  for (const match of masked.matchAll(/^ {0,3}\[(?!\^)(?:[^[\]\\]|\\.)+\]:[ \t]*(<[^<>\n]*>|\S+)/gm)) {
    links.push({ line: lineAt(match.index), destination: match[1]!.replace(/^<|>$/g, '') })
  }
  return links.sort((a, b) => a.line - b.line)
}

/** Why a link from `file` does not resolve under `root`, or undefined when it does. */
function brokenBecause (root: string, file: string, destination: string, anchors: (file: string) => Set<string>): string | undefined {
  const hash = destination.indexOf('#')
  const [rawPath, rawAnchor] = hash === -1 ? [destination, ''] : [destination.slice(0, hash), destination.slice(hash + 1)]
  let path: string, anchor: string
  try {
    path = decodeURIComponent(rawPath.replace(/\?.*$/, ''))
    anchor = decodeURIComponent(rawAnchor)
  } catch {
    return 'not percent-encoded UTF-8'
  }
  let target = path === '' ? file : path.startsWith('/') ? join(root, path) : resolve(dirname(file), path)
  if (target !== root && !target.startsWith(root + sep)) return 'outside the checked folder'
  let stats
  try {
    stats = statSync(target)
  } catch {
    return 'no such file or folder'
  }
  if (anchor === '') return undefined
  if (stats.isDirectory()) {
    // A folder's page shows its README.md, whose headings its anchors name.
    target = join(target, 'README.md')
    try { statSync(target) } catch { return 'a folder without a README.md has no headings' }
  }
  // An anchor into another kind of file (a line of source, `#L10`) is not a heading.
  if (!MARKDOWN.test(target)) return undefined
  if (anchors(target).has(anchor)) return undefined
  return `${target === file ? 'this file has' : `${relative(root, target).split(sep).join('/')} has`} no heading whose slug is ${anchor}`
}

function main (args: string[]): number {
  let positionals: string[]
  try {
    positionals = parseArgs({ args, allowPositionals: true, options: {} }).positionals
  } catch {
    positionals = ['an option', 'the command takes none']
  }
  if (positionals.length > 1) {
    console.error(USAGE)
    return 2
  }
  const root = resolve(positionals[0] ?? fileURLToPath(new URL('..', import.meta.url)))
  try {
    if (!statSync(root).isDirectory()) throw new Error('not a folder')
  } catch {
    console.error(`check-links: ${root} is not a folder`)
    return 2
  }
  const cache = new Map<string, Set<string>>()
  const anchors = (file: string) => cache.get(file) ?? cache.set(file, anchorsOf(readFileSync(file, 'utf8'))).get(file)!
  const files = markdownFiles(root)
  let count = 0
  const broken: string[] = []
  for (const file of files) {
    for (const { line, destination } of linksOf(readFileSync(file, 'utf8'))) {
      // A scheme (https:, mailto:) or a protocol-relative URL leaves the repository.
      if (/^[a-z][a-z0-9+.-]*:/i.test(destination) || destination.startsWith('//')) continue
      count++
      const why = brokenBecause(root, file, destination, anchors)
      if (why !== undefined) broken.push(`${relative(root, file).split(sep).join('/')}:${line}: ${destination} (${why})`)
    }
  }
  const checked = `${count} relative link${count === 1 ? '' : 's'} in ${files.length} Markdown file${files.length === 1 ? '' : 's'}`
  if (broken.length > 0) {
    console.error(`${broken.join('\n')}\n${broken.length} broken of ${checked}`)
    return 1
  }
  console.log(`Checked ${checked}: every one resolves`)
  return 0
}

process.exitCode = main(process.argv.slice(2))
