/**
 * A step of `npm run build`, between tsc and the bundle: the validators and serializers of
 * a start, written as code (src/contract/precompiled.ts). The service, as tsc emitted it
 * (dist/src/, the modules the bundle is made of), is built once as `npm start` builds it,
 * with the default settings and a database in memory, while it records the code of each;
 * dist/precompiled.js holds them, and the bundle holds that in place of the empty
 * src/contract/precompiled-code.ts (scripts/bundle.ts).
 */
import { writeFileSync } from 'node:fs'

/** A module of the build, typed as its source. */
const built = async <T>(path: string): Promise<T> => await import(new URL(`../dist/src/${path}`, import.meta.url).href) as T

const { precompiled, recordPrecompiled } = await built<typeof import('../src/contract/precompiled.ts')>('contract/precompiled.js')
const recorded = recordPrecompiled()
const { loadConfig } = await built<typeof import('../src/config/config.ts')>('config/config.js')
const { appOptions, buildApp } = await built<typeof import('../src/app.ts')>('app.js')

// The default settings, not this shell's: the environment given is the whole of it.
const config = loadConfig({ DATABASE_URL: ':memory:', PETSTORE_API_KEYS: 'precompile-build-key-not-a-secret' }, precompiled)
const app = await buildApp(appOptions(config))
await app.ready()
await app.close()

/**
 * Each function as its module's code, run in a scope of its own when asked for; the
 * `require`s in it are the bundle's (ajv's and fast-json-stringify's runtime, and
 * int64Check in the build's own module).
 */
const entries = [...recorded].map(([key, code]) =>
  `  [${JSON.stringify(key)}, () => { const module = { exports: {} }; (function (module, exports) {${code}\n})(module, module.exports); return module.exports }]`)
writeFileSync(new URL('../dist/precompiled.js', import.meta.url), `// The validators and serializers of a start, written by scripts/precompile.ts.
export const PRECOMPILED = new Map([
${entries.join(',\n')}
])
`)
console.log(`precompiled ${recorded.size} validators and serializers`)
