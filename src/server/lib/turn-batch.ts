/**
 * Work that arrives during one turn of the event loop, done together at the
 * next (`setImmediate`): one statement for every event that came meanwhile
 * instead of one each, so a busy server makes fewer round trips to the
 * database (its largest cost per event, bench/README.md) while an idle one
 * waits for nothing. While a batch runs, what arrives waits for it and goes
 * in the next one (as a database's group commit does): the busier the
 * server, the larger the batches, instead of more statements at once.
 */
export class TurnBatch<Item, Result> {
  private pending: { item: Item; resolve(result: Result): void; reject(error: unknown): void }[] = [];
  private running = false;
  private scheduled = false;

  /** `run` answers one result per item, in their order; if it throws, every item of the batch fails with its error. */
  constructor(private readonly run: (items: readonly Item[]) => Promise<readonly Result[]>) {}

  add(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** The next batch, at the next turn, once the one that runs has ended. */
  private schedule(): void {
    if (this.scheduled || this.running || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.running = true;
    try {
      const results = await this.run(batch.map((entry) => entry.item));
      for (const [index, entry] of batch.entries()) entry.resolve(results[index] as Result);
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}
