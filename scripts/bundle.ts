/**
 * The third step of `npm run build`: the compiled server (dist/src/server.js) and the
 * packages it loads at every start, in one file, dist/server.js, which `npm start` runs.
 * Node 20 resolves, reads and compiles each ES module on its own, and the service's graph
 * is some 700 files: one file starts about a quarter of a second sooner
 * (docs/performance.md).
 *
 * Left outside the bundle, and loaded from node_modules as usual:
 * - packages that read files of their own beside their code (a native addon, Swagger UI's
 *   page, pino's transport workers), which a bundle would move away from them;
 * - drivers only some deployments load (`import()`ed when configured).
 *
 * Each bundled module of ours keeps its own `import.meta.url`, so the files it finds
 * relative to itself (the OpenAPI document) are found from the bundle too.
 */
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { build, type Plugin } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
const outfile = `${root}dist/server.js`

const EXTERNAL = [
  'better-sqlite3', // native addon
  '@fastify/swagger', '@fastify/swagger-ui', // read their package.json and page assets
  'pino', 'pino-pretty', // transports run in worker threads loaded by file name
  'pg', 'ioredis' // only with DATABASE_URL=postgres://... or REDIS_URL
]

/** `import.meta.url` in a module of dist/ becomes that module's own URL, relative to the bundle. */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup (build) {
    build.onLoad({ filter: /\/dist\/.*\.js$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8')
      const own = `new URL(${JSON.stringify(`./${relative(`${root}dist`, path)}`)}, import.meta.url).href`
      return { contents: source.replaceAll('import.meta.url', own), loader: 'js' }
    })
  }
}

const result = await build({
  absWorkingDir: root,
  entryPoints: ['dist/src/server.js'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  plugins: [ownImportMetaUrl],
  // CommonJS packages inside an ES module bundle still call `require` for Node's modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // V8 keeps a module's whole source in memory (to compile functions when first called),
  // two bytes a character once a comment holds one non-ASCII character: the readable
  // bundle cost 5.2 MiB of heap, this one about a quarter of that. Names are kept, so
  // stack traces still name functions; `node --enable-source-maps dist/server.js` maps
  // their positions back to the sources through dist/server.js.map.
  minifyWhitespace: true,
  // License comments (one holds a non-ASCII name) go to dist/server.js.LEGAL.txt.
  legalComments: 'external',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning'
})

// A bundled package that looks for files beside its own code would look beside the bundle.
const bundled = readFileSync(outfile, 'utf8')
if (/\b__dirname\b|\b__filename\b/.test(bundled)) {
  const culprits = Object.keys(result.metafile.inputs).filter((input) => /\b__dirname\b|\b__filename\b/.test(readFileSync(`${root}${input}`, 'utf8')))
  throw new Error(`the bundle refers to __dirname or __filename (from ${culprits.join(', ')}): add the package to EXTERNAL in scripts/bundle.ts`)
}
