/**
 * The page's state: one plain object that the views render from. Only the controller (app.ts and its
 * helpers) changes it, then asks for a render; lit-html updates just the parts that changed, so focus,
 * scroll and half-typed input survive.
 */
import type {
  AccessOutput,
  Diagnostic,
  Link,
  LinkConfig,
  MergeConflict,
  SearchOutput,
} from '@linkconfig/shared';
import type {
  Conflict,
  HybridStatus,
  RemoteStoreError,
} from '@linkconfig/web-client';
import type { SearchMode } from '../session/api.js';
import type { RefusedWrite } from './sync-status.js';
import type { LinkFields, PatternFields } from '../model/config-draft.js';
import type { LinkSort } from '../model/link-finder.js';
import { ACCESS } from '@linkconfig/web-client';
import { initialKeys } from './keys-state.js';
import type { KeysState } from './keys-state.js';
import { initialHistory } from './history-state.js';
import type { HistoryState } from './history-state.js';
import { initialTags } from './tags-state.js';
import { initialDuplicates, initialOrder } from './duplicates-state.js';
import type { DuplicatesState, OrderState } from './duplicates-state.js';
import type { TagsState } from './tags-state.js';
import { initialTransfer } from './transfer-state.js';
import { initialBulk } from './bulk-state.js';
import type { BulkState } from './bulk-state.js';
import { initialLinkHealth } from './link-health-state.js';
import { initialPublish } from './publish-state.js';
import type { PublishState } from './publish-state.js';
import type { LinkHealthState } from './link-health-state.js';
import type { HealthFacet } from '../model/link-health.js';
import type { TransferState } from './transfer-state.js';
import type { Access, CallKind } from '@linkconfig/web-client';

/** One config in the list, with where it is kept. */
export interface ConfigListItem {
  name: string;
  /** Kept in this browser. */
  local: boolean;
  /** On the server, as far as the page knows (`null`: the server never answered a list). */
  server: boolean | null;
  /** A change to it waits to be sent. */
  pending: boolean;
}

/** A form's fields, and whether it was submitted (only then is an empty field pointed out). */
export interface FormState<F> {
  values: F;
  submitted: boolean;
  /** The key of the entry being edited, or null when adding. */
  editing: string | null;
}

/** The macro form's fields. */
export interface MacroFields {
  name: string;
  expression: string;
}

/** The open config and its unsaved draft. */
export interface OpenConfig {
  name: string;
  draft: LinkConfig;
  dirty: boolean;
  /** The settings textarea, which may hold invalid JSON while the person types. */
  settingsText: string;
  settingsProblem: string | null;
  /** Why the last save did not happen. */
  saveProblem: string | null;
  /**
   * What happened to this config elsewhere (the server, another tab) that the editor does not show:
   * a newer version kept back because of unsaved edits, or its removal. The person chooses.
   */
  remote: RemoteChange;
  /**
   * With `remote` `changed`: the newer version and what both sides changed differently (the three-way
   * merge of the draft with it over the version the draft started from, which the store keeps:
   * `HybridStore.editBase`). Save waits until each is settled.
   */
  incoming: IncomingChange | null;
  /** A link to point at (opened from a search result). */
  targetLinkId: string | null;
}

/** A change made elsewhere to the open config: `changed` (a newer version) or `removed`. */
export type RemoteChange = 'changed' | 'removed' | null;

/** A newer version that conflicts with the unsaved draft, as the shared three-way merge found it. */
export interface IncomingChange {
  /** The newer version (the other person's). */
  readonly remote: LinkConfig;
  /** The merge, holding the draft's values where the two conflict. */
  readonly merged: LinkConfig | null;
  readonly conflicts: readonly MergeConflict[];
}

/** What the page knows about the expression in the field, from `POST /expressions/check`. */
export type ExpressionCheck =
  | { kind: 'none' }
  /** The diagnostics for `expression` (as sent), most serious first; empty when nothing looks wrong. */
  | { kind: 'found'; expression: string; diagnostics: Diagnostic[] }
  /** The check could not run: no server, or the config is not on the server yet. */
  | { kind: 'unavailable'; reason: 'no-server' | 'not-on-server' };

/**
 * Why running the expression in the field did not happen (nothing typed, no config open). Its results
 * are the engine's, run in this browser on the draft as it is typed.
 */
export type QueryOutcome = {
  kind: 'problem';
  message: string;
  needsToken: boolean;
};

/** The outcome of a search. */
export type SearchOutcome =
  | { kind: 'results'; output: SearchOutput }
  | { kind: 'problem'; message: string; needsToken: boolean };

/** A question the page asks in a dialog before doing something that cannot be undone. */
export interface Question {
  title: string;
  body: string;
  confirm: string;
  cancel: string;
  danger: boolean;
}

/** How the links list is narrowed and ordered, and when this page last changed each link. */
export interface LinksView {
  filter: string;
  /** Tags a link must all have to be shown. */
  tags: string[];
  sort: LinkSort;
  /** The order turned around (a table column pressed twice). */
  descending: boolean;
  /** How many of the links found are shown (more on request). */
  limit: number;
  /** Show every tag of the links found, not only the most frequent. */
  allTags: boolean;
  /** Only links in this health facet (broken, moved); null: any. */
  health: HealthFacet | null;
  /** When this page last changed each link (ms since the epoch), for "recently changed". */
  touched: Record<string, number>;
}

/** A link deleted from the draft a moment ago, which "Undo" puts back where it was. */
export interface UndoOffer {
  configName: string;
  id: string;
  link: Link;
  /** Its place among the links. */
  index: number;
}

/** How many links are shown at first, and how many more each "Show more" adds. */
export const LINKS_PAGE = 50;

/** The links list as a config opens: everything, in config order. */
export function initialLinksView(): LinksView {
  return {
    filter: '',
    tags: [],
    sort: 'config',
    descending: false,
    limit: LINKS_PAGE,
    allTags: false,
    health: null,
    touched: {},
  };
}

/** Everything the views show. */
export interface AppState {
  ready: boolean;
  /** Set when the page cannot work at all (no browser storage). */
  fatal: string | null;
  /** A failure of this browser's storage outside a save (listing, opening). */
  pageProblem: string | null;
  /**
   * Said once changes made elsewhere were merged with this browser's (unsaved edits or a save that met
   * a newer server version): no question was needed.
   */
  mergedNote: string | null;
  configs: ConfigListItem[];
  /** Why the config last clicked in the list did not open (the open one stayed). */
  listNotice: string | null;
  /** The server answered the last request. */
  reachable: boolean | null;
  online: boolean;
  hybrid: HybridStatus;
  deadLetters: RefusedWrite[];
  /** Writes that met a newer version on the server, waiting for the person's choice. */
  conflicts: Conflict[];
  tokenSet: boolean;
  /** Whether the server lets this page read and write with the current token. */
  access: Record<CallKind, Access>;
  /**
   * What the signed-in key may do (scope, name patterns), as the server said (`GET /access`); null
   * until it answers (then only the server's refusals tell).
   */
  grant: AccessOutput | null;
  /** The server refused a write with this token before (remembered across reloads): it may only read. */
  readOnlyRemembered: boolean;
  /** The latest refusals not about access (a 5xx, say), until a call of that kind succeeds. */
  failures: Record<CallKind, RemoteStoreError | null>;
  open: OpenConfig | null;
  /** Shown instead of an editor when no config is open. */
  editorMessage: string;
  create: FormState<{ name: string }>;
  link: FormState<LinkFields>;
  links: LinksView;
  /** The latest link deleted, while it can still be put back. */
  undo: UndoOffer | null;
  /** Bulk edits, the table's cell edits and the keyboard of the links list. */
  bulk: BulkState;
  macro: FormState<MacroFields>;
  pattern: FormState<PatternFields>;
  query: {
    expression: string;
    outcome: QueryOutcome | null;
    check: ExpressionCheck;
  };
  search: {
    mode: SearchMode;
    text: string;
    submitted: boolean;
    running: boolean;
    outcome: SearchOutcome | null;
  };
  question: Question | null;
  /** The import and export dialog. */
  transfer: TransferState;
  /** The Keys panel (admin keys only). */
  keys: KeysState;
  /** The History panel of the open config, and the recently deleted configs. */
  history: HistoryState;
  /** The Tags section of the open config. */
  tags: TagsState;
  /** The Duplicates section of the open config and the link form's URL warning. */
  duplicates: DuplicatesState;
  /** The Menu order section of the open config. */
  order: OrderState;
  /** The server's link health of the open config. */
  linkHealth: LinkHealthState;
  /** The Publish panel of the open config. */
  publish: PublishState;
  /** Read out by screen readers (a polite live region). */
  announcement: string;
  /** The time the status was last brought up to date (ms), for how long changes have waited. */
  clock: number;
}

/** A form with empty fields. */
export function emptyForm<F>(values: F): FormState<F> {
  return { values, submitted: false, editing: null };
}

/** Empty link form fields. */
export const NO_LINK: LinkFields = {
  id: '',
  label: '',
  url: '',
  tags: '',
  description: '',
};
/** Empty macro form fields. */
export const NO_MACRO: MacroFields = { name: '', expression: '' };
/** Empty pattern form fields. */
export const NO_PATTERN: PatternFields = {
  key: '',
  pattern: '',
  fields: '',
  sort: '',
  limit: '',
};

/** The state before anything is loaded. */
export function initialState(): AppState {
  return {
    ready: false,
    fatal: null,
    pageProblem: null,
    mergedNote: null,
    configs: [],
    listNotice: null,
    reachable: null,
    online: navigator.onLine,
    hybrid: {
      pending: 0,
      deadLetters: 0,
      lastError: null,
      remoteReachable: null,
      lastMerge: null,
      paused: false,
      conflicts: 0,
      live: 'off',
      names: {},
    },
    deadLetters: [],
    conflicts: [],
    tokenSet: false,
    access: { read: ACCESS.unknown, write: ACCESS.unknown },
    grant: null,
    readOnlyRemembered: false,
    failures: { read: null, write: null },
    open: null,
    editorMessage: 'Pick a config from the list, or create one.',
    create: emptyForm({ name: '' }),
    link: emptyForm(NO_LINK),
    links: initialLinksView(),
    undo: null,
    bulk: initialBulk(),
    macro: emptyForm(NO_MACRO),
    pattern: emptyForm(NO_PATTERN),
    query: {
      expression: '',
      outcome: null,
      check: { kind: 'none' },
    },
    search: {
      mode: 'q',
      text: '',
      submitted: false,
      running: false,
      outcome: null,
    },
    question: null,
    transfer: initialTransfer(),
    keys: initialKeys(),
    history: initialHistory(),
    tags: initialTags(),
    duplicates: initialDuplicates(),
    order: initialOrder(),
    linkHealth: initialLinkHealth(),
    publish: initialPublish(),
    announcement: '',
    clock: Date.now(),
  };
}
