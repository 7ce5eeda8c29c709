/**
 * The third step of `npm run build`: the compiled server (dist/src/server.js) and the
 * packages it loads at every start, in one file, dist/bundle.cjs, which dist/server.js (what
 * `npm start` runs) compiles with the code cache the build's last step makes for it
 * (scripts/code-cache.ts). Node 20 resolves, reads and compiles each ES module on its own,
 * and the service's graph is hundreds of files: one file starts sooner, and one file
 * compiled from V8's cache of it sooner again, as it compiles nothing that the cache holds
 * (docs/performance.md#the-start).
 *
 * The bundle is a function, called as Node calls a CommonJS module's (`exports, require,
 * module, __filename, __dirname`): the value of the file run as a script, which V8 compiles
 * with a code cache (Node 20 has no way to give an ES module one), and the exports of the
 * file required as a CommonJS module, whose source map Node reads (it reads none of a
 * script's). Its code is strict, as the modules it was made of are.
 *
 * Left outside the bundle, and loaded from node_modules as usual:
 * - a native addon, and pino-pretty, a transport that pino runs in a worker thread;
 * - drivers only some deployments load (`import()`ed when configured).
 *
 * Each bundled module keeps its own location: ours their `import.meta.url`, so the files
 * they find relative to themselves (the OpenAPI document) are found from the bundle too, and
 * a package its `__dirname` and `__filename` in node_modules, where the files it reads beside
 * its code still are (Swagger UI's page and assets, the worker that pino's transports run in).
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs'
import { dirname, relative } from 'node:path'
import { build, type Plugin } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
const outfile = `${root}dist/bundle.cjs`

const EXTERNAL = [
  'better-sqlite3', // native addon
  'pino-pretty', // a transport: pino runs it in a worker thread, by its file name
  'pg', 'ioredis', // only with DATABASE_URL=postgres://... or REDIS_URL
  '@nats-io/transport-node', '@nats-io/jetstream', 'amqplib' // only with EVENT_STREAM_URL
]

const USES_ITS_LOCATION = /\b__dirname\b|\b__filename\b/
const STRICT_PROLOGUE = /^(\s*(\/\/[^\n]*\n|\/\*[\s\S]*?\*\/))*\s*(['"])use strict\3;?/

/**
 * `import.meta.url` in a module of ours (dist/) becomes that module's own URL, relative to
 * the bundle's (`__bundleUrl`, declared by the banner). A module of ours that looked for
 * files beside itself by `__dirname` would look beside the bundle, so it stops the build.
 */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup (build) {
    build.onLoad({ filter: /\/dist\/.*\.js$/ }, ({ path }) => {
      // A package's own dist/ folder is the next plugin's.
      if (!path.startsWith(`${root}dist/`)) return undefined
      const source = readFileSync(path, 'utf8')
      if (USES_ITS_LOCATION.test(source)) throw new Error(`${path} refers to __dirname or __filename: use import.meta.url`)
      const own = `new URL(${JSON.stringify(`./${relative(`${root}dist`, path)}`)}, __bundleUrl).href`
      return { contents: source.replaceAll('import.meta.url', own), loader: 'js' }
    })
  }
}

/**
 * The validators and serializers the build wrote (scripts/precompile.ts, run before this
 * step) in place of src/contract/precompiled-code.ts, which holds none.
 */
const precompiledCode: Plugin = {
  name: 'precompiled-code',
  setup (build) {
    build.onLoad({ filter: /\/dist\/src\/contract\/precompiled-code\.js$/ }, () => {
      const written = `${root}dist/precompiled.js`
      if (!existsSync(written)) throw new Error(`${written} is missing: scripts/precompile.ts writes it, before the bundle`)
      return { contents: readFileSync(written, 'utf8'), loader: 'js', resolveDir: `${root}dist` }
    })
  }
}

/**
 * Fastify loads `node:https` (and with it TLS) and `node:http2` as it is imported, for
 * options the service never sets (`https`, `http2`): every start would load TLS for
 * nothing. In the bundle, each is loaded when Fastify first uses it. A Fastify whose lines differ is
 * bundled as it is, slower to start, with a warning (and test/scripts/lazy-builtins.test.ts
 * fails, so that this is brought up to date).
 */
const LAZY_IN_FASTIFY = ['https', 'http2']
const lazyFastifyBuiltins: Plugin = {
  name: 'lazy-fastify-builtins',
  setup (build) {
    build.onLoad({ filter: /\/node_modules\/fastify\/lib\/server\.js$/ }, ({ path }) => {
      let source = readFileSync(path, 'utf8')
      for (const name of LAZY_IN_FASTIFY) {
        const eager = `const ${name} = require('node:${name}')`
        if (!source.includes(eager)) {
          console.warn(`bundle: ${path} no longer has \`${eager}\`; node:${name} is loaded at start`)
          continue
        }
        source = source.replace(eager, `const ${name} = new Proxy({}, { get: (_, key) => require('node:${name}')[key] })`)
      }
      return { contents: source, loader: 'js', resolveDir: dirname(path) }
    })
  }
}

/**
 * `__dirname` and `__filename` in any other bundled module (a package's) are its own file's
 * in node_modules, found from the bundle's location when it runs (dist/ and node_modules/
 * are siblings). Declared after the module's "use strict" (and any comment before it),
 * which must stay its first statement, and on the same line, so the source map's lines
 * still match.
 */
const ownDirname: Plugin = {
  name: 'own-dirname',
  setup (build) {
    build.onLoad({ filter: /\.[cm]?js$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8')
      if (!USES_ITS_LOCATION.test(source)) return undefined
      if (/\b(var|let|const)\s+(__dirname|__filename)\b/.test(source)) throw new Error(`${path} declares __dirname or __filename itself: bundle.ts cannot place it`)
      const file = JSON.stringify(relative(`${root}dist`, path))
      const location = `var __filename = require('node:path').join(__bundleDirname, ${file}), __dirname = require('node:path').dirname(__filename);`
      const strict = STRICT_PROLOGUE.exec(source)?.[0] ?? ''
      return { contents: `${strict};${location}${source.slice(strict.length)}`, loader: 'js', resolveDir: dirname(path) }
    })
  }
}

await build({
  absWorkingDir: root,
  entryPoints: ['dist/src/server.js'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: EXTERNAL,
  plugins: [precompiledCode, lazyFastifyBuiltins, ownImportMetaUrl, ownDirname],
  // The function dist/server.js calls: the value of the script, and the exports of the
  // module. `__bundleDirname` is dist/, where `ownDirname` finds node_modules from. Its own
  // line, so the source map's lines stay the modules'.
  banner: { js: "(typeof module === 'object' ? module : {}).exports = function (exports, require, module, __filename, __dirname) {'use strict'; const __bundleDirname = __dirname, __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  footer: { js: '}' },
  // V8 keeps a module's whole source in memory (to compile functions when first called),
  // two bytes a character once a comment holds one non-ASCII character: without spaces
  // and comments, what it keeps is a fraction of a readable bundle's. Names are kept, so
  // stack traces still name functions; `node --enable-source-maps dist/server.js` maps
  // their positions back to the sources through dist/bundle.cjs.map.
  minifyWhitespace: true,
  // License comments (one holds a non-ASCII name) go to dist/bundle.cjs.LEGAL.txt.
  legalComments: 'external',
  sourcemap: true,
  logLevel: 'warning'
})

// What `npm start` runs: the bundle, compiled with its code cache when there is one.
copyFileSync(`${root}scripts/bundle-entry.js`, `${root}dist/server.js`)
