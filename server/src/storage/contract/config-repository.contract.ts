import { describe } from 'vitest';
import { runChangesContract } from './config-repository-changes.contract.js';
import {
  type RepositoryHarness,
  useRepositoryScope,
} from './config-repository-fixtures.contract.js';
import { runEventsContract } from './config-repository-events.contract.js';
import { runHistoryContract } from './config-repository-history.contract.js';
import { runHooksContract } from './config-repository-hooks.contract.js';
import { runKeysContract } from './config-repository-keys.contract.js';
import { runLinkHealthContract } from './config-repository-link-health.contract.js';
import { runPublishContract } from './config-repository-publish.contract.js';
import { runPublishBackupContract } from './config-repository-publish-backup.contract.js';
import { runRestoreContract } from './config-repository-restore.contract.js';
import { runSnapshotContract } from './config-repository-snapshot.contract.js';
import { runStorageContract } from './config-repository-storage.contract.js';
import { runSummariesContract } from './config-repository-summaries.contract.js';
import { runUpdateContract } from './config-repository-update.contract.js';
import { runWritesContract } from './config-repository-writes.contract.js';

export type { RepositoryHarness } from './config-repository-fixtures.contract.js';

/**
 * The one behaviour suite every `ConfigRepository` adapter must pass, in parts by behaviour:
 * storage and reads (`config-repository-storage.contract.ts`), writes with preconditions and
 * timestamps (`config-repository-writes.contract.ts`), updates decided from the stored version
 * (`config-repository-update.contract.ts`), and the change history
 * (`config-repository-changes.contract.ts`), the revisions of every config
 * (`config-repository-history.contract.ts`), snapshots for backups (`config-repository-snapshot.contract.ts`,
 * with history and keys and their restore in `config-repository-restore.contract.ts`)
 * access keys (`config-repository-keys.contract.ts`) and link health
 * (`config-repository-link-health.contract.ts`), webhooks (`config-repository-hooks.contract.ts`), publish
 * records (`config-repository-publish.contract.ts`; in snapshots and restores,
 * `config-repository-publish-backup.contract.ts`), revision summaries and the retention of the log's
 * other entries (`config-repository-summaries.contract.ts`); shared helpers in
 * `config-repository-fixtures.contract.ts`.
 */
export function runConfigRepositoryContract(
  label: string,
  harness: RepositoryHarness,
): void {
  describe(`ConfigRepository contract: ${label}`, () => {
    const scope = useRepositoryScope(harness);
    runStorageContract(harness, scope);
    runWritesContract(harness, scope);
    runUpdateContract(harness, scope);
    runChangesContract(harness, scope);
    runEventsContract(scope);
    runSnapshotContract(scope);
    runKeysContract(harness, scope);
    runLinkHealthContract(harness, scope);
    runHooksContract(harness, scope);
    runPublishContract(harness, scope);
    runHistoryContract(harness, scope);
    runSummariesContract(scope);
    runRestoreContract(harness, scope);
    runPublishBackupContract(harness, scope);
  });
}
