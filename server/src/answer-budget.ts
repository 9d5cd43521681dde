import { DomainError } from './errors.js';

/**
 * The characters of JSON answers one request may still send, for a `/trpc` batch: it is one request, so its cost
 * is bounded as one, however many calls it names. Each call's answer is taken from the budget before it
 * is sent; the call that would pass it fails with `too_large` (413) and the others are answered. A
 * single call has no budget: its answer is bounded as on REST (a stored config is at most `BODY_LIMIT`).
 */
export class AnswerBudget {
  #left: number;

  constructor(readonly chars: number) {
    this.#left = chars;
  }

  /** Takes an answer of `size` characters, or throws when the budget has less left. */
  take(size: number): void {
    if (size > this.#left) {
      throw new DomainError(
        'too_large',
        `the answers of this batch would pass ${this.chars} characters of JSON; make this call on its own`,
      );
    }
    this.#left -= size;
  }
}
