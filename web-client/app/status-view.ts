/**
 * The always-visible status line: pending changes, whether the server is reachable, and the last
 * problem, in plain words. Lives in an aria-live region so screen readers hear changes.
 */
import type { DeadLetter, HybridStatus } from '@linkconfig/web-client';
import { byTestId, h } from './dom.js';
import { plainWords } from './plain-words.js';

/** What the dead-letter buttons do. */
export interface DeadLetterActions {
  retry(name: string): void;
  discard(name: string): void;
}

/** Renders the status region; keeps the last problem reported by the store or by the page. */
export class StatusView {
  private readonly pending = byTestId('status-pending');
  private readonly server = byTestId('status-server');
  private readonly problem = byTestId('status-error');
  private readonly dead = byTestId('dead-letters');
  private storeError: string | null = null;
  private status: HybridStatus | null = null;
  private reachable: boolean | null = null;
  private problemText: string | null = null;
  private problemSource: 'store' | 'page' = 'page';

  constructor(private readonly actions: DeadLetterActions) {
    const rerender = () => {
      this.renderServer();
      this.renderProblem();
    };
    addEventListener('online', rerender);
    addEventListener('offline', rerender);
  }

  /** Shows a new store status. */
  update(status: HybridStatus): void {
    this.status = status;
    const count = status.pending;
    this.pending.dataset['pending'] = String(count);
    this.pending.dataset['state'] = count > 0 ? 'warn' : 'ok';
    this.pending.textContent =
      count === 0
        ? 'No changes waiting: everything you saved is on the server.'
        : `${count} ${count === 1 ? 'change is' : 'changes are'} saved in this browser and waiting to be sent to the server.`;
    if (status.lastError !== this.storeError) {
      this.storeError = status.lastError;
      if (status.lastError !== null)
        this.setProblem(plainWords(status.lastError), 'store');
    }
    this.renderServer();
    this.renderProblem();
  }

  /** Shows whether the server answered the page's latest request. */
  setReachable(reachable: boolean): void {
    this.reachable = reachable;
    this.renderServer();
    this.renderProblem();
  }

  /** Shows a problem the page itself ran into (query, search, local storage). */
  showProblem(message: string): void {
    this.setProblem(message, 'page');
  }

  private setProblem(message: string, source: 'store' | 'page'): void {
    this.problemText = message;
    this.problemSource = source;
    this.renderProblem();
  }

  /**
   * A delivery problem of the store is over once the server answers and nothing waits any more; the
   * page's own problems (a refused query, say) stay until the next one.
   */
  private renderProblem(): void {
    if (this.problemText === null) return;
    const solved =
      this.problemSource === 'store' &&
      this.reachable === true &&
      navigator.onLine &&
      this.status?.pending === 0 &&
      this.status.deadLetters === 0 &&
      !this.status.paused;
    this.problem.dataset['state'] = solved ? 'warn' : 'bad';
    this.problem.textContent = solved
      ? `Earlier problem, solved since: ${this.problemText}`
      : `Last problem: ${this.problemText}`;
  }

  /** Lists the writes the server refused for good, with retry/discard buttons. */
  showDeadLetters(letters: DeadLetter[]): void {
    this.dead.replaceChildren(
      ...letters.map((letter) =>
        h('p', { 'data-state': 'bad' }, [
          `The server refused the change to "${letter.name}" (error ${letter.status}): ${letter.error} `,
          this.button(`Try "${letter.name}" again`, () =>
            this.actions.retry(letter.name),
          ),
          ' ',
          this.button(`Discard the change to "${letter.name}"`, () =>
            this.actions.discard(letter.name),
          ),
        ]),
      ),
    );
  }

  private button(label: string, onClick: () => void): HTMLButtonElement {
    const button = h('button', { type: 'button', text: label });
    button.addEventListener('click', onClick);
    return button;
  }

  private renderServer(): void {
    const status = this.status;
    let text: string;
    let state: 'ok' | 'warn' | 'bad';
    let reachable: 'yes' | 'no' | 'unknown';
    if (!navigator.onLine) {
      text =
        'This browser is offline. You can keep working; changes will be sent when the connection is back.';
      state = 'bad';
      reachable = 'no';
    } else if (status?.paused) {
      text =
        'The server refused our credentials, so sending changes is paused.';
      state = 'bad';
      reachable = 'yes';
    } else if (this.reachable === false) {
      text =
        'The server cannot be reached. You can keep working; changes will be sent when it is back.';
      state = 'bad';
      reachable = 'no';
    } else if (this.reachable === true) {
      text = 'The server is reachable.';
      state = 'ok';
      reachable = 'yes';
    } else {
      text = 'Checking the server…';
      state = 'warn';
      reachable = 'unknown';
    }
    this.server.textContent = text;
    this.server.dataset['state'] = state;
    this.server.dataset['reachable'] = reachable;
  }
}
