/** Time, injected wherever expiry matters, so tests move it instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  #at: number;

  constructor(start: Date | string = '2026-11-22T10:00:00.000Z') {
    this.#at = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#at);
  }

  advance(ms: number): void {
    this.#at += ms;
  }
}

export const iso = (date: Date) => date.toISOString();
export const later = (date: Date, ms: number) => new Date(date.getTime() + ms);
