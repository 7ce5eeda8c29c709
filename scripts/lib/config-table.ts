/**
 * The table of every setting in docs/operating/configuration.md, written from the
 * configuration's schema (src/config/schema.ts): a row for each variable, in the schema's
 * order (its name, its default, its `description` as the meaning), then the OpenTelemetry
 * variables. `npm run docs:config` writes it between the page's two marker comments;
 * test/scripts/docs-config.test.ts fails when the page's table is not this one.
 */
import { ENVIRONMENT, TRACING_VARIABLES } from '../../src/config/schema.ts'

export const CONFIGURATION_PAGE = 'docs/operating/configuration.md'
export const TABLE_START = '<!-- The table is written from src/config/schema.ts by `npm run docs:config`: edit it there. -->'
export const TABLE_END = '<!-- End of the table written by `npm run docs:config`. -->'

/** What the table reads of a variable's schema. */
interface Variable { default?: unknown, description?: string, 'x-default'?: string }

const code = (text: string) => `\`${text}\``

/** The default as the table says it: in the schema's words, none for an empty text, or the value. */
function shownDefault (name: string, variable: Variable): string {
  if (variable['x-default'] !== undefined) return variable['x-default']
  if (variable.default === undefined) throw new Error(`${name} has no default, nor an x-default saying what unset means`)
  return variable.default === '' ? 'none' : code(String(variable.default))
}

/** The table, as Markdown lines. A `|` in a cell is escaped: it would end the cell. */
export function configurationTable (): string {
  const rows = Object.entries(ENVIRONMENT.properties).map(([name, schema]) => {
    const variable = schema as Variable
    if (variable.description === undefined) throw new Error(`${name} has no description, the table's meaning`)
    return [code(name), shownDefault(name, variable), variable.description]
  })
  for (const { names, default: shown, description } of TRACING_VARIABLES) {
    rows.push([names.map((name) => name === '...' ? name : code(name)).join(', '), shown, description])
  }
  return [
    '| variable | default | meaning |',
    '|---|---|---|',
    ...rows.map((cells) => `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`)
  ].join('\n')
}

/** `page` with the table between its markers written anew; throws when the markers are not there. */
export function withTable (page: string): string {
  const start = page.indexOf(TABLE_START)
  const end = page.indexOf(TABLE_END)
  if (start === -1 || end < start) throw new Error(`the page has no ${TABLE_START} and ${TABLE_END} around its table`)
  return `${page.slice(0, start + TABLE_START.length)}\n${configurationTable()}\n${page.slice(end)}`
}
