/**
 * Tells waiting readers of the feed that an event may have committed. Each notice moves a
 * generation on; a reader takes the generation before it reads, and waits for a later one,
 * so a notice that comes between its read and its wait is never missed.
 */
export class ChangeSignal {
  #generation = 0
  #wake = new Set<() => void>()
  #closed = false

  get generation (): number {
    return this.#generation
  }

  /** Something committed (here, on another instance, or found by polling): every waiter reads again. */
  notify (): void {
    this.#generation++
    const wake = this.#wake
    this.#wake = new Set()
    for (const resolve of wake) resolve()
  }

  /** Wakes every waiter for good: the service is stopping. */
  close (): void {
    this.#closed = true
    this.notify()
  }

  get closed (): boolean {
    return this.#closed
  }

  /** Resolves once the generation is past `seen`, or after `ms`, or at once when closed. */
  async after (seen: number, ms: number): Promise<void> {
    if (this.#generation !== seen || this.#closed || ms <= 0) return
    let timer: NodeJS.Timeout | undefined
    let wake: () => void = () => {}
    await new Promise<void>((resolve) => {
      wake = resolve
      this.#wake.add(resolve)
      timer = setTimeout(resolve, ms)
    })
    clearTimeout(timer)
    this.#wake.delete(wake)
  }
}
