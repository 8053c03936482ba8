import type { Clock } from './clock.ts';
import { SlidingWindowLimit } from './sliding-window.ts';

/** One password attempt: on which account, from which client address, and from which known device if any. */
export interface SignInAttempt {
  /** The e-mail, lowercased: any e-mail is counted, so the answers never tell the admin's from another. */
  account: string;
  address: string;
  /** The id of a valid device cookie for this account (DeviceCookies.verify). */
  device?: string;
}

export const signInLimits = {
  /** Failures per (client address, account), and per known device. */
  perClient: { limit: 5, windowMs: 5 * 60_000 },
  /**
   * Failures per account from clients that are not known devices: free ones (twice what one address gets, so
   * one attacker alone never delays the owner), then a delay doubling each time.
   */
  account: { free: 10, windowMs: 60 * 60_000, firstDelayMs: 1_000, maxDelayMs: 5 * 60_000 },
};

/**
 * The break-glass sign-in's throttle (ADR 0048), built so an attacker cannot turn it against the owner. A
 * client address gets 5 failures per account in 5 minutes, then waits; that holds one attacker, not the owner
 * at another address. Failures on the account from anywhere add up too: past 10 in an hour, each next attempt
 * waits 1 s, 2 s, 4 s … (at most 5 minutes) after the last failure, which bounds guessing from many addresses.
 * That delay would hold the owner too, so a known device — a browser with a device cookie from an earlier
 * sign-in to the account — is exempt from both, and limited by its own count instead (5 in 5 minutes).
 */
export class SignInThrottle {
  readonly #clock: Clock;
  readonly #perClient: SlidingWindowLimit;
  readonly #account: SlidingWindowLimit;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#perClient = new SlidingWindowLimit(clock, signInLimits.perClient);
    this.#account = new SlidingWindowLimit(clock, {
      limit: Number.POSITIVE_INFINITY,
      windowMs: signInLimits.account.windowMs,
    });
  }

  /** Milliseconds this attempt must wait before its password is even checked; 0 when it may go ahead. */
  waitMs(attempt: SignInAttempt): number {
    if (attempt.device) return this.#perClient.retryAfterMs(deviceKey(attempt));
    return Math.max(this.#perClient.retryAfterMs(clientKey(attempt)), this.accountDelayMs(attempt.account));
  }

  /** What the account-wide delay holds a client that is not a known device back for, now. */
  accountDelayMs(account: string): number {
    const { free, firstDelayMs, maxDelayMs } = signInLimits.account;
    const failures = this.#account.recent(account);
    if (failures.length < free) return 0;
    const delay = Math.min(firstDelayMs * 2 ** (failures.length - free), maxDelayMs);
    return Math.max(0, (failures.at(-1) as number) + delay - this.#clock.now().getTime());
  }

  failed(attempt: SignInAttempt): void {
    if (attempt.device) {
      this.#perClient.record(deviceKey(attempt));
      return;
    }
    this.#perClient.record(clientKey(attempt));
    this.#account.record(attempt.account);
  }

  /** The client's own count starts again; the account's does not (the owner signing in ends no attack). */
  succeeded(attempt: SignInAttempt): void {
    this.#perClient.forget(attempt.device ? deviceKey(attempt) : clientKey(attempt));
  }
}

const clientKey = (attempt: SignInAttempt) => `address ${attempt.address} ${attempt.account}`;
const deviceKey = (attempt: SignInAttempt) => `device ${attempt.device}`;
