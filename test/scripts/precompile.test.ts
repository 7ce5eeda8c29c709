/**
 * `npm run build` writes the validators and serializers of a start as code
 * (scripts/precompile.ts), and the bundle holds them in place of the sources' empty
 * src/contract/precompiled-code.ts (scripts/bundle.ts). That each one answers as the one
 * compiled at start is test/fuzz/precompiled.test.ts's.
 */
import { readFileSync } from 'node:fs'
import t from 'tap'
import { builtServer } from '../helpers/process.ts'

const built = (file: string) => readFileSync(new URL(`../../dist/${file}`, import.meta.url), 'utf8')

t.test('the bundle holds every validator and serializer the build wrote', async (t) => {
  await builtServer()
  const keys = [...built('precompiled.js').matchAll(/^ {2}\["([\w-]+)", /gm)].map((match) => match[1]!)
  // The environment's validator, the routes' validators and their response serializers, the webhooks' envelopes.
  t.ok(keys.length >= 30, `${keys.length} written`)
  const bundle = built('bundle.cjs')
  t.strictSame(keys.filter((key) => !bundle.includes(`"${key}"`)), [], 'each of them in the bundle')
  t.match(bundle, /int64Check\("1", ?"9223372036854775807", ?true\)/, 'the int64 keyword\'s check, made from the code')
})
