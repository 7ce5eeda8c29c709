/**
 * The docs page in a real browser (Debian's Chromium, driven by playwright-core), as a
 * person sees it: our title and favicon, no top bar, the servers to choose from, the tags,
 * the deprecation and stability markings; then authorize with a key, "Try it out" on
 * createPet, listPets and placeOrder, reload, and find the key still there for getPet.
 * Fails if the page cannot reach the API (CSP, prefixes, server URL).
 * Screenshots are saved under test-results/ (git-ignored).
 */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import t from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import { declaredScopes } from '../../src/contract/operation-security.ts'
import { startServer } from '../helpers/process.ts'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const KEY = 'browser-test-key-not-a-secret-00'
const results = new URL('../../test-results/', import.meta.url).pathname

function skipReason (): string | false {
  if (existsSync(CHROMIUM)) return false
  if (process.env.PETSTORE_REQUIRE_SERVICES === '1') throw new Error(`Chromium is required (PETSTORE_REQUIRE_SERVICES=1) but missing at ${CHROMIUM}`)
  return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH) to run the browser test`
}

/** Opens an operation, presses "Try it out", fills the body if given, executes; the status and the response shown. */
async function tryItOut (page: Page, operation: string, fill: Record<string, string> = {}) {
  await page.click(`${operation} .opblock-summary`)
  await page.click(`${operation} button.try-out__btn`)
  for (const [selector, value] of Object.entries(fill)) await page.fill(`${operation} ${selector}`, value)
  await page.click(`${operation} button.execute`)
  await page.waitForSelector(`${operation} .live-responses-table .response-col_status`)
  const row = `${operation} .live-responses-table tbody`
  return { status: (await page.textContent(`${row} .response-col_status`))?.trim(), shown: await page.textContent(`${row} .response-col_description`) }
}

t.test('Swagger UI: our page with its markings; authorize, Try it out, reload, still authorized', { skip: skipReason() }, async (t) => {
  const server = await startServer(t, { PETSTORE_API_KEYS: KEY, LOG_LEVEL: 'warn' })
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    // As root in a container, and with no network beyond this machine.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
  })
  t.teardown(() => browser.close())
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } })
  const problems: string[] = []
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()) })
  page.on('pageerror', (error) => problems.push(error.message))

  const favicon = page.waitForResponse((response) => response.url() === `${server.base}/docs/static/theme/favicon.svg`)
  await page.goto(`${server.base}/docs`)
  await page.waitForSelector('#operations-pets-listPets')
  t.equal(await page.title(), 'Petstore service — API docs')
  t.equal((await favicon).status(), 200, 'the browser fetched our favicon')
  t.match(await page.textContent('.info .title'), /Petstore service/)
  t.equal(await page.locator('.topbar, .download-url-wrapper, img').count(), 0, 'no top bar: no Fastify logo, no "Explore" box')
  t.same(await page.locator('.servers select option').allTextContents(), [
    '/v1 - This server: the host serving this page (local in development)',
    'https://petstore.example.com/v1 - Production',
    'https://staging.petstore.example.com/v1 - Staging'
  ])
  t.equal(await page.inputValue('.servers select'), '/v1', '"Try it out" goes to the host serving the page')
  t.match(await page.textContent('#operations-tag-pets'), /^pets\s*The animals of the store\./)
  t.match(await page.textContent('#operations-tag-orders'), /^orders\s*Orders for the store's animals\. Experimental area:/)

  // The deprecated getPet: greyed out by Swagger UI, with its sunset and successor from us.
  const getPet = '#operations-pets-getPet'
  t.match(await page.getAttribute(getPet, 'class'), /opblock-deprecated/)
  t.equal(await page.locator(getPet).evaluate((block) => block.ownerDocument.defaultView!.getComputedStyle(block).opacity), '1', 'not faded: our stylesheet applies')
  t.match(await page.textContent(`${getPet} .opblock-summary`), /\[deprecated, sunset 2030-12-05\] Get a pet$/)
  mkdirSync(results, { recursive: true })
  await page.screenshot({ path: join(results, 'docs-page.png'), fullPage: true })

  await page.click('button.authorize')
  const dialog = (await page.textContent('.modal-ux')) ?? ''
  t.match(dialog, /A key holds one or more scopes/)
  // Each scope the document lists, with its text as written there (plain text, shown as it is).
  const scopes = [...declaredScopes(apiDocument)]
  t.ok(scopes.some(([scope]) => scope === 'pets:write'), 'the document lists its scopes')
  for (const [scope, allows] of scopes) t.ok(dialog.includes(`${scope}: ${allows}`), `the Authorize dialog lists ${scope}`)
  await page.fill('.modal-ux input', KEY)
  await page.click('.modal-ux button.authorize')
  await page.click('.modal-ux button.btn-done')

  const created = await tryItOut(page, '#operations-pets-createPet',
    { 'textarea.body-param__text': '{"name": "Browser Rex", "categoryId": 9007199254740993, "status": "available"}' })
  t.equal(created.status, '201')

  const listed = await tryItOut(page, '#operations-pets-listPets')
  t.equal(listed.status, '200')
  t.match(listed.shown, /"name": "Browser Rex"/)
  t.match(listed.shown, /"status": "available"/)
  t.match(listed.shown, /x-request-id/i, 'the response headers are shown')

  // The events: the feed among the operations, and each event type the document declares
  // under webhooks, with its body, in the page's Webhooks section.
  t.match(await page.textContent('#operations-events-listEvents .opblock-summary'), /\[experimental\] Follow the event feed/)
  const webhooks = (await page.locator('.webhooks').textContent()) ?? ''
  t.match(webhooks, /^Webhooks/)
  const declared = Object.keys(apiDocument.document.webhooks as object)
  t.ok(declared.includes('pet.created'))
  for (const type of declared) t.match(webhooks, type, `the ${type} webhook is shown`)

  // The orders area: its stability markings are shown, and placing an order works.
  t.match(await page.textContent('#operations-orders-listOrders .opblock-summary'), /\[experimental\] List orders/)
  t.match(await page.textContent('#operations-orders-cancelOrder .opblock-summary'), /\[beta\] Cancel an order/)
  const placeOrder = '#operations-orders-placeOrder'
  t.match(await page.textContent(`${placeOrder} .opblock-summary`), /\[experimental\] Place an order/)
  const placed = await tryItOut(page, placeOrder, { 'textarea.body-param__text': '{"petId": 1, "quantity": 2}' })
  t.match(await page.textContent(`${placeOrder} .opblock-description-wrapper`), /Experimental: may change or vanish without notice[^]*Scope: orders:write\./,
    'the scope the operation needs is shown')
  t.equal(placed.status, '201')
  t.match(placed.shown, /"quantity": 2/)
  t.match(placed.shown, /api-stability: experimental/i, 'the marking is in the answer\'s headers too')

  await page.screenshot({ path: join(results, 'docs-try-it-out.png') })

  // A reload keeps the key (persistAuthorization): getPet answers with it, no second Authorize.
  await page.reload()
  await page.waitForSelector('#operations-pets-listPets')
  t.match(await page.getAttribute('.auth-wrapper button.authorize', 'class'), /\blocked\b/, 'the padlock shows the page authorized')
  const { origins } = await page.context().storageState()
  t.match(origins.find((entry) => entry.origin === server.base)?.localStorage, [{ name: 'authorized', value: new RegExp(KEY) }], 'kept in this browser')
  const fetched = await tryItOut(page, getPet, { 'input[placeholder="petId"]': '1' })
  t.match(await page.textContent(`${getPet} .opblock-description-wrapper`),
    /Deprecated since 2026-11-22; sunset 2030-12-05, from when it answers 410 gone\. Successor: GET \/v1\/pets\.\s*Scope: pets:read \(or pets:write, which includes it\)\. A key without it gets 403 insufficient_scope\.\s*Returns one pet\. Deprecated [\s\S]* with the status filter instead/)
  t.equal(fetched.status, '200')
  t.match(fetched.shown, /"name": "Browser Rex"/)
  // Swagger UI drops the space after each comma of a header it shows.
  t.match(fetched.shown, /sunset: Thu, ?05 Dec 2030 00:00:00 GMT/i, 'the deprecation headers are shown')
  t.match(fetched.shown, /deprecation: @1795305600/i)
  await page.locator(getPet).evaluate((block) => block.scrollIntoView())
  await page.screenshot({ path: join(results, 'docs-get-pet-after-reload.png') })
  t.same(problems, [], 'no console errors (CSP violations would show here)')

  // What the browser sent reached the API with the key, stored exactly.
  const stored = await fetch(`${server.base}/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } })
  t.match(await stored.text(), /"categoryId":9007199254740993/)
})
