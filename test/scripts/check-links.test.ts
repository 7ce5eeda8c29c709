/**
 * `npm run check:links` (remark-validate-links, through remark-cli): every relative link of
 * the Markdown files resolves, to a file or folder and to a heading by its GitHub slug, and
 * a broken one fails the command, named with its file, line and column. The command is package.json's
 * own, run in a folder of good and broken links; what .gitignore names is not read.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { delimiter } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
import t from 'tap'

const root = new URL('../../', import.meta.url)
const command = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts['check:links']!

/** The command run in `dir` as npm runs it: through a shell, with the project's bin folder first on PATH. */
function checkLinks (dir: string): Promise<{ code: number, stdout: string, stderr: string }> {
  const path = `${fileURLToPath(new URL('node_modules/.bin', root))}${delimiter}${process.env.PATH ?? ''}`
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { cwd: dir, env: { ...process.env, PATH: path } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr: stripVTControlCharacters(stderr) })
    })
  })
}

const GUIDE = `# Guide

## Retrying safely with \`Idempotency-Key\`

## Deprecation of \`GET /v1/pets/{petId}\`

## Notes
## Notes

### Émoji 🎉, *bold* and \`snake_case\` ##
`

/** A tree whose links all resolve, the kinds the guides write. */
const GOOD = {
  '.gitignore': 'node_modules/\ndist/\n',
  'package.json': '{}',
  'README.md': [
    '# Project',
    '',
    'See [the guide](docs/guide.md), [retries](docs/guide.md#retrying-safely-with-idempotency-key),',
    '[the sunset](docs/guide.md#deprecation-of-get-v1petspetid), [the second notes](docs/guide.md#notes-1),',
    '[the emoji](docs/guide.md#émoji--bold-and-snake_case), [a folder](docs/), [this file](#project) and',
    '[a file](package.json). ![an image](docs/guide.md) and [a defined link][guide].',
    '',
    '| in | a table |',
    '|---|---|',
    '| [a cell](docs/guide.md#notes) | `[code](missing.md)` |',
    '',
    '[guide]: docs/guide.md#notes',
    '',
    'Not followed: [a site](https://example.com/missing.md), [mail](mailto:a@example.com),',
    '`[inline code](missing.md)` and <!-- [a comment](missing.md) -->.',
    '',
    '```md',
    '[in a fence](missing.md)',
    '```',
    ''
  ].join('\n'),
  docs: {
    'README.md': '# Docs\n\nBack to [the project](../README.md#project), from [the root](/README.md).\n',
    'guide.md': GUIDE
  },
  // What tools make or install is not read.
  dist: { 'README.md': '[x](missing.md)\n' }
}

t.test('a tree whose links all resolve: exit 0, nothing said', async (t) => {
  t.same(await checkLinks(t.testdir(GOOD)), { code: 0, stdout: '', stderr: '' })
})

t.test('a broken link and a broken anchor: exit 1, each named by file and line', async (t) => {
  const dir = t.testdir({
    ...GOOD,
    docs: {
      ...GOOD.docs,
      'page.md': '# Page\n\nA [gone file](missing.md), [a gone heading](guide.md#notes-2), [here too](#nothing)\nand [one defined][gone].\n\n[gone]: ../gone.md\n'
    }
  })
  const { code, stdout, stderr } = await checkLinks(dir)
  t.equal(code, 1)
  t.equal(stdout, '')
  const lines = stderr.split('\n').map((line) => line.trim().replace(/\s+/g, ' '))
  t.equal(lines[0], 'docs/page.md', 'the file with broken links, and no other')
  t.match(lines.slice(1, 5), [
    /^3:3-3:26 warning Cannot find file `missing.md`/,
    /^3:28-3:62 warning Cannot find heading for `#notes-2` in `guide.md`; did you mean `notes-1`/,
    /^3:64-3:84 warning Cannot find heading for `#nothing`/,
    /^6:1-6:19 warning Cannot find file `..\/gone.md`/
  ])
  t.match(stderr, /⚠ 4 warnings/)
})
