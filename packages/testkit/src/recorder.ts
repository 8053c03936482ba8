/**
 * Everything a test client received, in order, with a way to wait for the first item that matches — already
 * received or still to come — so tests wait on streams instead of sleeping.
 */
export class Received<T> {
  readonly items: T[] = [];
  readonly #waiters = new Set<{ match: (item: T) => boolean; resolve: (item: T) => void }>();
  readonly #describe: (items: T[]) => string;

  constructor(describe: (items: T[]) => string) {
    this.#describe = describe;
  }

  push(item: T): void {
    this.items.push(item);
    for (const waiter of this.#waiters) {
      if (waiter.match(item)) {
        this.#waiters.delete(waiter);
        waiter.resolve(item);
      }
    }
  }

  next(match: (item: T) => boolean, timeoutMs: number): Promise<T> {
    const found = this.items.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolveItem, reject) => {
      const waiter = {
        match,
        resolve: (item: T) => {
          clearTimeout(timer);
          resolveItem(item);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`nothing matching within ${timeoutMs} ms; received: ${this.#describe(this.items)}`));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }
}
