/**
 * Hooks in the SQLite file (`hooks` and `hook_deliveries`, sqlite-migrations.ts). A claim is one `BEGIN
 * IMMEDIATE` transaction (due hooks read and leased together), so processes sharing the file never lease one
 * hook twice; other calls are single statements or short transactions.
 */
import type Database from 'better-sqlite3';
import {
  DELIVERY_COLUMNS,
  deliveryOfRow,
  deliveryValues,
  HOOK_COLUMNS,
  hookOfRow,
  hookValues,
} from '../hook-store.js';
import type {
  DeliveryRow,
  HookClaim,
  HookRow,
  HookStore,
  StoredDelivery,
  StoredHook,
} from '../hook-store.js';

/** The tables, as one migration creates them. */
export const HOOKS_TABLES_SQL = `CREATE TABLE hooks (
     id TEXT PRIMARY KEY NOT NULL,
     url TEXT NOT NULL,
     events TEXT NOT NULL,
     configs TEXT NOT NULL,
     secret TEXT,
     created_at TEXT NOT NULL,
     cursor INTEGER NOT NULL,
     attempts INTEGER NOT NULL,
     failing_since TEXT,
     next_at INTEGER NOT NULL,
     last_error TEXT,
     lease_owner TEXT,
     lease_until INTEGER
   ) WITHOUT ROWID;
   CREATE TABLE hook_deliveries (
     seq INTEGER PRIMARY KEY,
     hook_id TEXT NOT NULL,
     event_id INTEGER NOT NULL,
     type TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     at TEXT NOT NULL,
     status INTEGER,
     error TEXT,
     duration_ms INTEGER NOT NULL
   );
   CREATE INDEX hook_deliveries_hook ON hook_deliveries (hook_id, seq)`;

/** A {@link HookStore} on `db`; `guard` refuses calls once the repository is closed. */
export function createSqliteHooks(
  db: Database.Database,
  guard: <T>(fn: () => T) => Promise<T>,
): HookStore {
  const marks = (n: number): string => Array(n).fill('?').join(', ');
  const insert = db.prepare(
    `INSERT INTO hooks (${HOOK_COLUMNS}) VALUES (${marks(11)})`,
  );
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO hooks (${HOOK_COLUMNS}) VALUES (${marks(11)})`,
  );
  const selectAll = db.prepare<[], HookRow>(
    `SELECT ${HOOK_COLUMNS} FROM hooks ORDER BY created_at, id`,
  );
  const selectDeliverable = db
    .prepare<[], number>(
      'SELECT EXISTS (SELECT 1 FROM hooks WHERE secret IS NOT NULL)',
    )
    .pluck();
  const selectOne = db.prepare<[string], HookRow>(
    `SELECT ${HOOK_COLUMNS} FROM hooks WHERE id = ?`,
  );
  const deleteHook = db.prepare<[string]>('DELETE FROM hooks WHERE id = ?');
  const deleteLog = db.prepare<[string]>(
    'DELETE FROM hook_deliveries WHERE hook_id = ?',
  );
  const selectDue = db.prepare<HookClaim, HookRow>(
    `SELECT ${HOOK_COLUMNS} FROM hooks
     WHERE secret IS NOT NULL AND cursor < @head AND next_at <= @now
       AND (lease_until IS NULL OR lease_until <= @now OR lease_owner = @owner)
     ORDER BY next_at, id
     LIMIT @limit`,
  );
  const lease = db.prepare<[string, number, string]>(
    'UPDATE hooks SET lease_owner = ?, lease_until = ? WHERE id = ?',
  );
  const advance = db.prepare(
    `UPDATE hooks SET cursor = @cursor, attempts = @attempts, failing_since = @failingSince,
       next_at = @nextAt, last_error = @lastError,
       lease_owner = CASE WHEN @release THEN NULL ELSE lease_owner END,
       lease_until = CASE WHEN @release THEN NULL ELSE lease_until END
     WHERE id = @id AND lease_owner = @owner`,
  );
  const insertDelivery = db.prepare(
    `INSERT INTO hook_deliveries (hook_id, ${DELIVERY_COLUMNS})
     SELECT ${marks(8)} WHERE EXISTS (SELECT 1 FROM hooks WHERE id = ?)`,
  );
  // Everything of the hook older than its `keep`-th newest row.
  const trim = db.prepare<[string, string, number]>(
    `DELETE FROM hook_deliveries WHERE hook_id = ? AND seq <= (
       SELECT seq FROM hook_deliveries WHERE hook_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?
     )`,
  );
  const selectLog = db.prepare<[string, number], DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM hook_deliveries WHERE hook_id = ? ORDER BY seq DESC LIMIT ?`,
  );
  const removeAll = db.transaction((id: string) => {
    deleteLog.run(id);
    return deleteHook.run(id).changes > 0;
  });
  const claim = db.transaction((c: HookClaim) => {
    const rows = selectDue.all(c);
    for (const row of rows) lease.run(c.owner, c.until, row.id);
    return rows.map(hookOfRow);
  });
  const record = db.transaction(
    (deliveries: readonly StoredDelivery[], keep: number) => {
      const hooks = new Set<string>();
      for (const d of deliveries) {
        insertDelivery.run(...deliveryValues(d), d.hookId);
        hooks.add(d.hookId);
      }
      for (const id of hooks) trim.run(id, id, keep);
    },
  );
  const putAll = db.transaction((hooks: readonly StoredHook[]) => {
    for (const hook of hooks) upsert.run(...hookValues(hook));
  });
  return {
    insert: (hook) =>
      guard(() => {
        insert.run(...hookValues(hook));
      }),
    list: () => guard(() => selectAll.all().map(hookOfRow)),
    anyDeliverable: () => guard(() => selectDeliverable.get() === 1),
    get: (id) =>
      guard(() => {
        const row = selectOne.get(id);
        return row === undefined ? null : hookOfRow(row);
      }),
    remove: (id) => guard(() => removeAll.immediate(id)),
    claim: (c) => guard(() => claim.immediate(c)),
    advance: (id, progress, { owner, release }) =>
      guard(
        () =>
          advance.run({
            ...progress,
            release: release ? 1 : 0,
            id,
            owner,
          }).changes > 0,
      ),
    record: (deliveries, keep) =>
      guard(() => {
        record.immediate(deliveries, keep);
      }),
    deliveries: (id, limit) =>
      guard(() => selectLog.all(id, limit).map(deliveryOfRow)),
    putAll: (hooks) =>
      guard(() => {
        putAll.immediate(hooks);
      }),
  };
}
