/**
 * The one connection, held by one query or transaction at a time and handed to the next
 * waiting in the order they came. Kysely's own lock wakes every waiter at each release,
 * and all but one wait again: the reads of one turn of the event loop, which come
 * together once the response cache's check is done, cost it a number of wake-ups, and of
 * their promises, that grows with the square of their count. In front of it, its lock is
 * always free when taken.
 */
export class ConnectionQueue {
  #held = false
  readonly #waiting: Array<() => void> = []

  async acquire (): Promise<void> {
    if (!this.#held) {
      this.#held = true
      return
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve))
  }

  release (): void {
    const next = this.#waiting.shift()
    // Handed over: still held, by the next in line.
    if (next === undefined) this.#held = false
    else next()
  }
}
