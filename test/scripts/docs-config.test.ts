/**
 * `npm run docs:config`: the table of docs/operating/configuration.md is written from the
 * configuration's schema (src/config/schema.ts), and the page's table is that one: a variable
 * added, or its default, bounds or meaning changed in the schema alone, fails here until the
 * page is written again.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { SETTINGS } from '../../src/config/schema.ts'
import { CONFIGURATION_PAGE, TABLE_END, TABLE_START, configurationTable, withTable } from '../../scripts/lib/config-table.ts'
import { scriptResult, tempDir } from '../helpers/process.ts'

const page = readFileSync(CONFIGURATION_PAGE, 'utf8')

t.test('the page\'s table is the one the schema writes', async (t) => {
  t.equal(withTable(page), page, `${CONFIGURATION_PAGE} differs from src/config/schema.ts: run npm run docs:config`)
})

t.test('a row for each variable, in the schema\'s order, then the OpenTelemetry ones', async (t) => {
  const rows = configurationTable().split('\n').slice(2)
  t.same(rows.slice(0, SETTINGS.length).map((row) => /^\| `(\w+)` \|/.exec(row)?.[1]), SETTINGS)
  t.equal(rows.length, SETTINGS.length + 3)
  t.equal(rows[0], '| `PORT` | `3000` | listening port |', 'a default as it is')
  t.ok(rows.includes('| `BODY_LIMIT` | `16384` | largest request body in bytes; larger answers 413 |'), 'a number as the environment writes it')
  t.match(rows.find((row) => row.startsWith('| `PETSTORE_API_KEYS` |')), /^\| `PETSTORE_API_KEYS` \| none \| /, 'an empty default: none')
  t.match(rows.find((row) => row.startsWith('| `METRICS_PORT` |')), /^\| `METRICS_PORT` \| unset \(off\) \| /, 'in the schema\'s words')
  t.match(rows.at(-2), /^\| `OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`, `OTEL_EXPORTER_OTLP_PROTOCOL`, \.\.\. \| /)
  // As every line of the docs: a longer description is a paragraph after the table.
  t.same(rows.filter((row) => row.length > 400), [], 'no row over 400 characters')
})

t.test('npm run docs:config writes the table between the markers, and nothing else', async (t) => {
  const dir = tempDir(t)
  const stale = join(dir, 'configuration.md')
  const outside = `# Configuration\n\nBefore.\n\n${TABLE_START}\n| variable | default | meaning |\n|---|---|---|\n| \`PORT\` | \`80\` | the port |\n${TABLE_END}\n\nAfter.\n`
  writeFileSync(stale, outside)
  const first = await scriptResult('scripts/docs-config.ts', [stale], {})
  t.equal(first.code, 0, first.stderr)
  t.match(first.stdout, /configuration\.md: the table written/)
  t.equal(readFileSync(stale, 'utf8'), `# Configuration\n\nBefore.\n\n${TABLE_START}\n${configurationTable()}\n${TABLE_END}\n\nAfter.\n`)
  const second = await scriptResult('scripts/docs-config.ts', [stale], {})
  t.match(second.stdout, /configuration\.md: the table is up to date/, 'a second run changes nothing')

  writeFileSync(stale, '# Configuration\n\nNo markers.\n')
  const refused = await scriptResult('scripts/docs-config.ts', [stale], {})
  t.not(refused.code, 0, 'a page without the markers is refused')
  t.match(refused.stderr, /the page has no .* around its table/)
  t.equal(readFileSync(stale, 'utf8'), '# Configuration\n\nNo markers.\n', 'and left as it was')
})
