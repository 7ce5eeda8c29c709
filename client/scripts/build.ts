/**
 * `npm run build` of petstore-client, into dist/:
 * - index.js: one ES module, with lossless-json bundled in, so the package depends on
 *   openapi-fetch alone (esbuild; readable, not minified);
 * - the declarations, from tsc (tsconfig.build.json).
 * Then it checks what a consumer gets: the JavaScript imports openapi-fetch and nothing else,
 * and the declarations name no bundled package and no file outside the package.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))
const dist = join(root, 'dist')
const DEPENDENCIES = ['openapi-fetch']
const BUNDLED = 'lossless-json'

/** The folder of an installed package, found from its entry point. */
function packageDir (name: string): string {
  let dir = dirname(fileURLToPath(import.meta.resolve(name)))
  const named = (dir: string) => existsSync(join(dir, 'package.json')) && JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name === name
  while (!named(dir)) dir = dirname(dir)
  return dir
}

rmSync(dist, { recursive: true, force: true })

// A bundled package's license travels with its code.
const bundledDir = packageDir(BUNDLED)
const { version, license } = JSON.parse(readFileSync(join(bundledDir, 'package.json'), 'utf8')) as { version: string, license: string }
const licenseText = readFileSync(join(bundledDir, 'LICENSE.md'), 'utf8').trim().replaceAll('*/', '* /')
const banner = `/*!\n * petstore-client includes ${BUNDLED} ${version}, under its ${license} license:\n *\n` +
  licenseText.split('\n').map((line) => ` * ${line}`.trimEnd()).join('\n') + '\n */'

const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  bundle: true,
  // Nothing of Node's: the client runs wherever `fetch` does.
  platform: 'neutral',
  format: 'esm',
  target: 'es2022',
  external: DEPENDENCIES,
  banner: { js: banner },
  metafile: true,
  logLevel: 'warning'
})

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' })

const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((imported) => imported.path))
const unexpected = imports.filter((path) => !DEPENDENCIES.includes(path))
if (unexpected.length > 0) throw new Error(`dist/index.js imports ${unexpected.join(', ')}: bundle it, or make it a dependency`)

const SPECIFIER = /\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g
for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.d.ts'))) {
  const path = join(dist, file)
  for (const [, from, imported] of readFileSync(path, 'utf8').matchAll(SPECIFIER)) {
    const specifier = (from ?? imported)!
    const inside = specifier.startsWith('.') && !relative(dist, resolve(dirname(path), specifier)).startsWith('..')
    if (!inside && !DEPENDENCIES.includes(specifier)) {
      throw new Error(`dist/${file} refers to ${specifier}: a consumer of the package cannot resolve it`)
    }
  }
}
