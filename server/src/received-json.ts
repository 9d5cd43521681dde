import type { LinkTextEdit, LinkTextTemplate } from '@linkconfig/shared';
import { textOf } from './storage/stored-text.js';
import type { StoredText } from './storage/stored-text.js';

/**
 * A stored config's text a config body may be read against (`linkEditOfText`): the version the service
 * holds of the name (one this server wrote, so the config check accepted it), where its links sit, and
 * the nesting bound of the config check.
 */
export interface EditTemplate extends LinkTextTemplate {
  /** The stored version the text is. */
  readonly version: number;
  readonly maxDepth: number;
}

/** A body read as an edit of a template: the template, and what the edit is (its links' places, its counts). */
export interface ReceivedEdit {
  readonly template: EditTemplate;
  readonly edit: LinkTextEdit;
}

/** What the input check sees of a body read as an edit ({@link ReceivedJson.inputValue}). */
const EDITED: Readonly<Record<string, never>> = Object.freeze({});

/**
 * The JSON a request body carried: the parsed value and the text it was parsed from. It travels as a value
 * from the body reader (`http/middleware/json-body.ts`) to the service that stores it (`ConfigService.put`), so a
 * config is kept exactly as received (key order, unknown keys, spacing) and never serialized again. The
 * body reader gives the text with the bytes it was decoded from ({@link stored}), which a write may store
 * as they are.
 *
 * A config body the reader could read as an edit of the stored version ({@link edit}) was checked on the
 * links it changes only, and is not parsed: its {@link value} is parsed on first use.
 */
export class ReceivedJson {
  #value: unknown;
  #parsed: boolean;
  #edit: ReceivedEdit | undefined;
  /** The text received, as a write stores it: with the bytes it was decoded from, when the reader had them. */
  readonly stored: StoredText;
  /** The text received. */
  readonly text: string;

  constructor(
    value: unknown,
    text: StoredText,
    /**
     * How deeply the value nests, when measured on the text as it was read (`inspectJsonText`), so the
     * config check compares it instead of walking the value again; absent, the check walks the value.
     */
    readonly depth?: number,
  ) {
    this.#value = value;
    this.#parsed = true;
    this.stored = text;
    this.text = textOf(text);
  }

  /** The body read as an edit of a stored version (its top level an object, its value not parsed yet). */
  static edited(text: StoredText, edit: ReceivedEdit): ReceivedJson {
    const received = new ReceivedJson(undefined, text);
    received.#parsed = false;
    received.#edit = edit;
    return received;
  }

  /** When the body was read as an edit of a stored version: which, and what the edit is. */
  get edit(): ReceivedEdit | undefined {
    return this.#edit;
  }

  /**
   * What an operation's input check sees of the body: its value, or for a body read as an edit (an
   * object, stored as its text by the operation, which receives the body itself) an empty object standing
   * for it, so it is never parsed whole.
   */
  get inputValue(): unknown {
    return this.#edit === undefined ? this.value : EDITED;
  }

  /** The parsed value (a body read as an edit is parsed here, once: its text is known to be valid). */
  get value(): unknown {
    if (!this.#parsed) {
      this.#value = JSON.parse(this.text);
      this.#parsed = true;
    }
    return this.#value;
  }
}
