/**
 * For the mixed rows of `npm run bench`: real traffic is not one URL repeated. Each request
 * is drawn from a mix, 60% one random pet, 20% a listing by a random status and 20% creates,
 * by a generator with a fixed seed, so that every run against every server sends the same
 * requests in the same order (which of its connections sends each is the load's timing).
 */
export interface Drawn { method: 'GET' | 'POST', path: string, body?: string }

export const MIX_SEED = 20261127

const STATUSES = ['available', 'pending', 'sold'] as const

/** mulberry32: a small generator whose whole sequence its seed fixes. */
function seeded (seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6D2B79F5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A new draw of the mix over a database of `pets` pets, from the seed's start; each create sends `newPet`. */
export function trafficMix (pets: number, newPet: string, seed = MIX_SEED): () => Drawn {
  const random = seeded(seed)
  return () => {
    const roll = random()
    if (roll < 0.6) return { method: 'GET', path: `/v1/pets/${1 + Math.floor(random() * pets)}` }
    if (roll < 0.8) return { method: 'GET', path: `/v1/pets?limit=20&status=${STATUSES[Math.floor(random() * STATUSES.length)]}` }
    return { method: 'POST', path: '/v1/pets', body: newPet }
  }
}
