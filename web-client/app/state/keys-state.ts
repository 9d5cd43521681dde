/** The state of the Keys panel (view-keys.ts, keys-actions.ts): an admin's list and new-key form. */
import type { AccessKey, CreateKeyOutput, KeyScope } from '@linkconfig/shared';

/** The new-key form's fields, as typed. */
export interface KeyFields {
  label: string;
  scope: KeyScope;
  /** Name patterns, separated by commas. */
  configs: string;
  /** A date (`YYYY-MM-DD`) or empty: never expires. */
  expires: string;
}

export interface KeysState {
  /** The panel is open (its fields exist only then, so they never clash with the page's). */
  open: boolean;
  /** Every key without its secret; null until listed. */
  list: AccessKey[] | null;
  form: KeyFields;
  /** Why the key was not created, or why the list could not be read. */
  problem: string | null;
  /** The key just created, with its secret: shown this once, gone when the panel closes. */
  created: CreateKeyOutput | null;
  busy: boolean;
  /** What the last copy did, read out and shown. */
  note: string | null;
}

export const NO_KEY_FIELDS: KeyFields = {
  label: '',
  scope: 'read',
  configs: '',
  expires: '',
};

export function initialKeys(): KeysState {
  return {
    open: false,
    list: null,
    form: { ...NO_KEY_FIELDS },
    problem: null,
    created: null,
    busy: false,
    note: null,
  };
}
