/**
 * The broker's answers to one batch of messages, each sent with a number of its own
 * (`first`, `first + 1`, ...): one array and one promise for the whole batch, rather than a
 * promise per message, since a batch under a flow of writes holds hundreds.
 */
export class BatchAcks {
  /** By place in the batch: undefined until answered, null once stored, or why not. */
  readonly #answers: Array<Error | null | undefined>
  #waiting: number
  #allIn!: () => void
  readonly #answered = new Promise<void>((resolve) => { this.#allIn = resolve })

  constructor (readonly first: number, count: number) {
    this.#answers = new Array<undefined>(count).fill(undefined)
    this.#waiting = count
    if (count === 0) this.#allIn()
  }

  /** The answer to the message numbered `n`: null if stored. Any other `n`, or a second answer, is ignored. */
  answer (n: number, error: Error | null): void {
    const place = n - this.first
    if (!(place >= 0 && place < this.#answers.length) || this.#answers[place] !== undefined) return
    this.#answers[place] = error
    if (--this.#waiting === 0) this.#allIn()
  }

  /** Every message not answered yet failed, for `error` (the connection closed). */
  failAll (error: Error): void {
    for (let place = 0; place < this.#answers.length; place++) this.answer(this.first + place, error)
  }

  /** Only the first `sent` were sent (sending the next threw): no answer is awaited for the rest. */
  sentOnly (sent: number, error: Error): void {
    for (let place = sent; place < this.#answers.length; place++) this.answer(this.first + place, error)
  }

  /**
   * How many of the first messages were stored before the first that was not, or that had
   * no answer within `ms`, and why that one was not.
   */
  async confirmed (ms: number, what: string): Promise<{ confirmed: number, error?: unknown }> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<Error>((resolve) => {
      timer = setTimeout(() => resolve(new Error(`${what}: no answer within ${ms} ms`)), ms)
    })
    const timeout = await Promise.race([this.#answered.then(() => undefined), late])
    clearTimeout(timer)
    const failed = this.#answers.findIndex((answer) => answer !== null)
    if (failed === -1) return { confirmed: this.#answers.length }
    return { confirmed: failed, error: this.#answers[failed] ?? timeout }
  }
}
