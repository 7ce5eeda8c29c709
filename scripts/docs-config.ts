/**
 * `npm run docs:config [-- PAGE]`: writes the table of every setting in
 * docs/operating/configuration.md (or PAGE) from the configuration's schema,
 * src/config/schema.ts (./lib/config-table.ts). Run it after changing a variable there; the
 * tests fail while the page's table differs.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { CONFIGURATION_PAGE, withTable } from './lib/config-table.ts'

const { positionals } = parseArgs({ allowPositionals: true })
if (positionals.length > 1) {
  console.error('usage: npm run docs:config [-- PAGE]')
  process.exit(2)
}
const page = positionals[0] ?? fileURLToPath(new URL(`../${CONFIGURATION_PAGE}`, import.meta.url))
const text = readFileSync(page, 'utf8')
const written = withTable(text)
if (written === text) {
  console.log(`${relative('.', page)}: the table is up to date`)
} else {
  writeFileSync(page, written)
  console.log(`${relative('.', page)}: the table written`)
}
