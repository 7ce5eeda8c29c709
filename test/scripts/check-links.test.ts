/**
 * `npm run check:links`: every relative link of the Markdown files resolves, to a file or
 * folder and to a heading by its GitHub slug; each broken one is named with its file and line.
 */
import t from 'tap'
import { scriptResult } from '../helpers/process.ts'

const checkLinks = (...args: string[]) => scriptResult('scripts/check-links.ts', args, {})

const GUIDE = `# Guide

## Retrying safely with \`Idempotency-Key\`

## Deprecation of \`GET /v1/pets/{petId}\`

## Notes
## Notes

### Émoji 🎉, *bold* and \`snake_case\` ##

<a id="kept"></a>
`

t.test('a tree whose links all resolve: one line, exit 0', async (t) => {
  const root = t.testdir({
    'README.md': [
      '# Project',
      '',
      'See [the guide](docs/guide.md), [retries](docs/guide.md#retrying-safely-with-idempotency-key),',
      '[the sunset](docs/guide.md#deprecation-of-get-v1petspetid), [the second notes](docs/guide.md#notes-1),',
      '[the emoji](docs/guide.md#émoji--bold-and-snake_case) and [an id](docs/guide.md#kept), [a',
      'folder](docs/) and its page ([docs/#docs](docs/#docs)), [this file](#project) and [a file](package.json).',
      '![an image](docs/guide.md), [![an image in a link](docs/guide.md)](docs/README.md) and [a defined link][guide].',
      '',
      '[guide]: docs/guide.md#notes',
      '',
      'Not followed: [a site](https://example.com/missing.md), [mail](mailto:a@example.com),',
      '`[inline code](missing.md)` and <!-- [a comment](missing.md) -->.',
      '',
      '```md',
      '# Not a heading',
      '[in a fence](missing.md)',
      '```'
    ].join('\n'),
    'package.json': '{}',
    docs: {
      'README.md': '# Docs\n\nBack to [the project](../README.md#project), from [the root](/README.md).\n',
      'guide.md': GUIDE
    }
  })
  t.same(await checkLinks(root), { code: 0, stdout: 'Checked 16 relative links in 3 Markdown files: every one resolves\n', stderr: '' })
})

t.test('each broken link named as file:line: link (why), exit 1', async (t) => {
  const root = t.testdir({
    'README.md': [
      '# Project',
      '',
      '[gone](missing.md) and [a third notes](docs/guide.md#notes-2)',
      '[no such heading](#nothing) and [a heading of a folder without README](docs/#x)',
      '[outside](../elsewhere.md) [bad escape](%E0%A4%A.md)',
      '',
      '[defined]: docs/gone.md'
    ].join('\n'),
    docs: {
      'guide.md': GUIDE,
      'page.md': 'A [link written with the heading\'s case](guide.md#Notes).\n'
    },
    // What tools make or install is not read.
    node_modules: { pkg: { 'README.md': '[x](missing.md)\n' } },
    dist: { 'README.md': '[x](missing.md)\n' },
    '.git': { 'notes.md': '[x](missing.md)\n' }
  })
  t.same(await checkLinks(root), {
    code: 1,
    stdout: '',
    stderr: [
      'README.md:3: missing.md (no such file or folder)',
      'README.md:3: docs/guide.md#notes-2 (docs/guide.md has no heading whose slug is notes-2)',
      'README.md:4: #nothing (this file has no heading whose slug is nothing)',
      'README.md:4: docs/#x (a folder without a README.md has no headings)',
      'README.md:5: ../elsewhere.md (outside the checked folder)',
      'README.md:5: %E0%A4%A.md (not percent-encoded UTF-8)',
      'README.md:7: docs/gone.md (no such file or folder)',
      'docs/page.md:1: guide.md#Notes (docs/guide.md has no heading whose slug is Notes)',
      '8 broken of 8 relative links in 3 Markdown files',
      ''
    ].join('\n')
  })
})

t.test('one folder at most, and it must be one: the usage, exit 2', async (t) => {
  const root = t.testdir({ 'file.md': '# A file\n' })
  t.same(await checkLinks(root, root), { code: 2, stdout: '', stderr: 'usage: npm run check:links [-- ROOT]\n' })
  t.same(await checkLinks('--fix'), { code: 2, stdout: '', stderr: 'usage: npm run check:links [-- ROOT]\n' })
  t.same(await checkLinks(`${root}/file.md`), { code: 2, stdout: '', stderr: `check-links: ${root}/file.md is not a folder\n` })
})
