/** The state of the open config's Publish panel (view-publish.ts, publish-actions.ts). */
import type {
  ConfigDiff,
  HistoryEntry,
  PublishRecord,
} from '@linkconfig/shared';

export interface PublishState {
  /** The config the panel shows; null: the panel is closed. */
  name: string | null;
  loading: boolean;
  /** The publish record; null: not published. */
  record: PublishRecord | null;
  /** The newest revisions (the draft first), to show the draft and pick a rollback from. */
  revisions: HistoryEntry[];
  /** What the draft changes against the published revision; null: nothing published, or the same. */
  diff: ConfigDiff | null;
  /** The revision picked for a rollback (0: none yet). */
  rollbackRev: number;
  /** The allowed origins being edited; null: any origin. */
  origins: string[] | null;
  /** The origin being typed, before "Add". */
  newOrigin: string;
  /** Whether the next publish hides links confirmed broken. */
  hideBroken: boolean;
  /** A publish, rollback or unpublish is running. */
  busy: boolean;
  /** What the last action did. */
  note: string | null;
  /** Why something could not be read or done. */
  problem: string | null;
}

export function initialPublish(): PublishState {
  return {
    name: null,
    loading: false,
    record: null,
    revisions: [],
    diff: null,
    rollbackRev: 0,
    origins: null,
    newOrigin: '',
    hideBroken: false,
    busy: false,
    note: null,
    problem: null,
  };
}
