/** What the controller's helpers (form and tool actions) may use of the page. */
import type { Session } from '../session/session.js';
import type { AppState, Question } from '../state/state.js';

/** The page as seen by an action helper. */
export interface PageContext {
  /** The state; change it in place: every change renders at the next microtask by itself. */
  readonly state: AppState;
  /** The plain value behind a part of the state, to store or send. */
  raw<V>(value: V): V;
  /** Moves focus to the element matching `selector` after the next render. */
  focus(selector: string): void;
  /** Reads `text` out to screen readers. */
  announce(text: string): void;
  /** Asks a yes/no question in a dialog. */
  ask(question: Question): Promise<boolean>;
  /** The stores, once open. */
  session(): Session | null;
  /** A failure in plain words. */
  describe(error: unknown): string;
  /** Lists the configs again (the list and its markers). */
  refreshNames(): Promise<void>;
  /** Checks the expression in the field again (the open config changed). */
  recheckExpression(): void;
}
