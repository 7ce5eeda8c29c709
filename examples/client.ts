/**
 * The petstore client, used as a consumer of the package uses it: create pets, page
 * through them, name their categories, list the pets of one, place and cancel an order,
 * handle an error. Against a started service:
 *
 *   PETSTORE_API_KEY=pst_... node --import tsx examples/client.ts
 *
 * PETSTORE_URL is the service's address, without /v1 (default http://127.0.0.1:3000, as
 * `npm start`), as for examples/curl.sh; the client's `baseUrl` is that address and /v1.
 *
 * client/test/example.test.ts runs it against a service on every test run, so it keeps up
 * with the client. It imports the package by its name, so it runs the build in client/dist/
 * (`npm run build`; `npm install` makes it), as an installed package would.
 */
import { createPetstoreClient, PetstoreError } from 'petstore-client'

const address = (process.env.PETSTORE_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '')
const apiKey = process.env.PETSTORE_API_KEY
if (address.endsWith('/v1')) {
  console.error(`PETSTORE_URL is the service's address without /v1: ${address.slice(0, -'/v1'.length)}`)
  process.exit(2)
}
if (apiKey === undefined) {
  console.error('Set PETSTORE_API_KEY to an API key of the service (npm start prints one on a first run).')
  process.exit(2)
}

const client = createPetstoreClient({ baseUrl: `${address}/v1`, apiKey })

const rex = await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' })
console.log(`created ${rex.name}, id ${rex.id}`)
// Integers past 2^53 are bigints, sent and read back digit for digit.
const big = await client.createPet({ name: 'Big', categoryId: 9007199254740993n, status: 'sold' })
console.log(`created ${big.name} in category ${big.categoryId}`)
for (const name of ['Tom', 'Kit', 'Ada']) await client.createPet({ name, categoryId: 2, status: 'sold' })

// Every sold pet, two to a page: the loop follows the pages as it goes.
for await (const pet of client.listPets({ status: 'sold', limit: 2 })) {
  console.log(`sold: ${pet.name} (category ${pet.categoryId})`)
}

// Categories give the categoryIds names (beta). Names are unique, whatever their case; a
// pet may still name a category that does not exist, as it always could.
const [dogs] = [await client.createCategory({ name: 'Dogs' }), await client.createCategory({ name: 'Cats' })]
const birds = await client.createCategory({ name: 'Birds', description: 'Everything with feathers' })
const hounds = await client.updateCategory(dogs!.id, { name: 'Hounds', description: 'Every dog of the store' })
console.log(`category ${hounds.id}: ${hounds.name} (${hounds.description})`)
for await (const category of client.listCategories({ limit: 2 })) console.log(`category: ${category.name}`)
// The available pets of one category, a page at a time.
for await (const pet of client.listPets({ categoryId: hounds.id, status: 'available' })) console.log(`available in ${hounds.name}: ${pet.name}`)
await client.deleteCategory(birds.id)
console.log(`removed category ${birds.id}; pets naming it keep their categoryId`)

const order = await client.placeOrder({ petId: rex.id, quantity: 2 })
console.log(`placed order ${order.id} for pet ${order.petId}, quantity ${order.quantity}`)
await client.cancelOrder(order.id)
console.log(`cancelled order ${order.id}`)

try {
  await client.cancelOrder(order.id)
} catch (error) {
  if (!(error instanceof PetstoreError) || error.code !== 'not_found') throw error
  console.log(`cancelling it again: ${error.status} ${error.code}, "${error.message}" (request ${error.requestId})`)
}

// What happened, read back from the event feed: the order cancelled above, as an event.
// `type` narrows the event, its data an Order here.
for await (const event of client.events({ type: 'order.cancelled' })) {
  if (event.type === 'order.cancelled') console.log(`event ${event.sequence}: ${event.type}, order ${event.data.id} for pet ${event.data.petId}`)
}
