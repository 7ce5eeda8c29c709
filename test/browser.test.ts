/**
 * The docs page in a real browser (Debian's Chromium, driven by playwright-core): open
 * /docs, authorize with a key, "Try it out" on createPet, listPets and placeOrder, and read
 * the answers the page shows, and the stability markings of the orders area. Fails if the page cannot reach the API (CSP, prefixes, server URL).
 * A screenshot is saved under test-results/ (git-ignored).
 */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import t from 'tap'
import { startServer, tempDir } from './process-helper.ts'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const KEY = 'browser-test-key-not-a-secret-00'
const results = new URL('../test-results/', import.meta.url).pathname

function skipReason (): string | false {
  if (existsSync(CHROMIUM)) return false
  if (process.env.PETSTORE_REQUIRE_SERVICES === '1') throw new Error(`Chromium is required (PETSTORE_REQUIRE_SERVICES=1) but missing at ${CHROMIUM}`)
  return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH) to run the browser test`
}

t.test('Swagger UI: authorize, then Try it out on createPet, listPets and placeOrder; stability markings shown', { skip: skipReason() }, async (t) => {
  const server = await startServer({ DATABASE_URL: join(tempDir(t), 'petstore.db'), PETSTORE_API_KEYS: KEY, LOG_LEVEL: 'warn' })
  t.teardown(() => { server.child.kill('SIGTERM') })
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

  await page.goto(`${server.base}/docs`)
  await page.waitForSelector('#operations-pets-listPets')
  t.match(await page.textContent('.info .title'), /Petstore service/)

  await page.click('button.authorize')
  await page.fill('.modal-ux input', KEY)
  await page.click('.modal-ux button.authorize')
  await page.click('.modal-ux button.btn-done')

  const createPet = '#operations-pets-createPet'
  await page.click(`${createPet} .opblock-summary`)
  await page.click(`${createPet} button.try-out__btn`)
  await page.fill(`${createPet} textarea.body-param__text`, '{"name": "Browser Rex", "categoryId": 9007199254740993, "status": "pending"}')
  await page.click(`${createPet} button.execute`)
  await page.waitForSelector(`${createPet} .live-responses-table .response-col_status`)
  t.equal((await page.textContent(`${createPet} .live-responses-table tbody .response-col_status`))?.trim(), '201')

  const listPets = '#operations-pets-listPets'
  await page.click(`${listPets} .opblock-summary`)
  await page.click(`${listPets} button.try-out__btn`)
  await page.click(`${listPets} button.execute`)
  await page.waitForSelector(`${listPets} .live-responses-table .response-col_status`)
  t.equal((await page.textContent(`${listPets} .live-responses-table tbody .response-col_status`))?.trim(), '200')
  const shown = await page.textContent(`${listPets} .live-responses-table tbody .response-col_description`)
  t.match(shown, /"name": "Browser Rex"/)
  t.match(shown, /"status": "pending"/)
  t.match(shown, /x-request-id/i, 'the response headers are shown')

  // The orders area: its stability markings are shown, and placing an order works.
  t.match(await page.textContent('#operations-orders-listOrders .opblock-summary'), /\[experimental\] List orders/)
  t.match(await page.textContent('#operations-orders-cancelOrder .opblock-summary'), /\[beta\] Cancel an order/)
  const placeOrder = '#operations-orders-placeOrder'
  await page.click(`${placeOrder} .opblock-summary`)
  t.match(await page.textContent(`${placeOrder} .opblock-description-wrapper`), /Experimental: may change or vanish without notice/)
  await page.click(`${placeOrder} button.try-out__btn`)
  await page.fill(`${placeOrder} textarea.body-param__text`, '{"petId": 1, "quantity": 2}')
  await page.click(`${placeOrder} button.execute`)
  await page.waitForSelector(`${placeOrder} .live-responses-table .response-col_status`)
  t.equal((await page.textContent(`${placeOrder} .live-responses-table tbody .response-col_status`))?.trim(), '201')
  const placed = await page.textContent(`${placeOrder} .live-responses-table tbody .response-col_description`)
  t.match(placed, /"quantity": 2/)
  t.match(placed, /api-stability: experimental/i, 'the marking is in the answer\'s headers too')

  mkdirSync(results, { recursive: true })
  await page.screenshot({ path: join(results, 'docs-try-it-out.png') })
  t.same(problems, [], 'no console errors (CSP violations would show here)')

  // What the browser sent reached the API with the key, stored exactly.
  const stored = await fetch(`${server.base}/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } })
  t.match(await stored.text(), /"categoryId":9007199254740993/)
})
