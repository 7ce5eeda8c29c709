// @ts-check
/**
 * dist/server.js, what `npm start` runs (scripts/start.js imports it; scripts/bundle.ts
 * copies it there): the service's bundle, dist/bundle.cjs, compiled with the code cache
 * `npm run build` made for it, dist/bundle.cjs.cache (scripts/code-cache.ts).
 *
 * V8 then reads the bundle's code, and the code of every function the service ran while the
 * cache was made (its start and its first requests), instead of compiling it again. A cache
 * serves only the Node and the node options it was made with, which it names beside it
 * (dist/bundle.cjs.cache.json): another Node's V8 refuses it, and some options make V8
 * refuse it on some versions. With another Node or other options it is not read: the
 * bundle is compiled as it would be without one, slower to start, and a line on stderr
 * says so (a start from the sources rebuilds on another Node: scripts/lib/build-stamp.js).
 *
 * With source maps on (`node --enable-source-maps`), the bundle is required instead, as the
 * CommonJS module it also is, without the cache: Node maps stack traces through a module's
 * source map, and not through a script's.
 *
 * With PETSTORE_WRITE_CODE_CACHE=1 (the build's last step), the cache is written as the
 * process exits, with every function it compiled by then.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import vm from 'node:vm'

const bundle = new URL('./bundle.cjs', import.meta.url)
const cache = new URL('./bundle.cjs.cache', import.meta.url)
const cacheMade = new URL('./bundle.cjs.cache.json', import.meta.url)
const filename = fileURLToPath(bundle)
const require = createRequire(bundle)
const writeCache = process.env.PETSTORE_WRITE_CODE_CACHE === '1'

/** @type {(exports: object, require: NodeRequire, module: { exports: object }, filename: string, dirname: string) => void} */
let serve
if (process.sourceMapsEnabled && !writeCache) {
  serve = require(filename)
} else {
  // What the cache serves: this Node and these options.
  const here = JSON.stringify({ node: process.version, v8: process.versions.v8, options: process.execArgv })
  const made = existsSync(cacheMade) ? readFileSync(cacheMade, 'utf8') : undefined
  const cachedData = made === here && existsSync(cache) ? readFileSync(cache) : undefined
  if (made !== undefined && made !== here && !writeCache) {
    process.stderr.write(`${fileURLToPath(cache)} was made for another Node or other node options than these (${made}); starting without it, which is slower (npm run build makes it again)\n`)
  }
  const script = new vm.Script(readFileSync(bundle, 'utf8'), {
    // Its URL, as a module's: stack traces name it so.
    filename: bundle.href,
    cachedData,
    // The `import()`s in the bundle are Node's own, as in a module.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER
  })
  if (cachedData !== undefined && script.cachedDataRejected === true) {
    process.stderr.write(`${fileURLToPath(cache)} was refused by V8; starting without it, which is slower (npm run build makes it again)\n`)
  }
  if (writeCache) {
    process.once('exit', () => {
      writeFileSync(cache, script.createCachedData())
      writeFileSync(cacheMade, here)
    })
  }
  serve = script.runInThisContext()
}
const module = { exports: {} }
serve(module.exports, require, module, filename, dirname(filename))
