import { afterEach, beforeEach } from 'vitest';
import type {
  ConfigRepository,
  PutResult,
  RemoveResult,
  Refused,
} from '../config-repository.js';

/** How a contract run gets a fresh, empty repository (and cleans up after it). */
export interface RepositoryHarness {
  create(): Promise<ConfigRepository> | ConfigRepository;
  /**
   * Opens another connection to the database `repo` uses, as a second process or instance would (also
   * after `repo` was closed: a restart). Adapters that cannot share a database leave it out.
   */
  connect?(
    repo: ConfigRepository,
  ): Promise<ConfigRepository> | ConfigRepository;
  destroy?(repo: ConfigRepository): Promise<void> | void;
}

export const T1 = new Date('2026-01-02T03:04:05.678Z');
export const T2 = new Date('2026-02-03T04:05:06.789Z');
/** A second after T1: within the default history age. */
export const SOON = new Date(T1.getTime() + 1000);
export const at = (date: Date) => ({ now: () => date });

export function stored(result: PutResult | Refused): PutResult {
  if (!result.ok) throw new Error(`write refused (${result.currentEtag})`);
  return result;
}
export function refused(result: PutResult | RemoveResult | Refused): Refused {
  if (result.ok) throw new Error('write was expected to be refused');
  return result;
}

/** The repository each test of a contract run works on, shared by the parts of the suite. */
export interface RepositoryScope {
  /** A fresh repository per test; a test may replace it (a restart), and the new one is closed. */
  repo: ConfigRepository;
  /** A repository that is closed after the test, like `repo`. */
  track<T extends ConfigRepository>(other: T): T;
}

/** Opens a fresh repository before each test of the enclosing `describe`, and closes it after. */
export function useRepositoryScope(
  harness: RepositoryHarness,
): RepositoryScope {
  const extra: ConfigRepository[] = [];
  const scope: RepositoryScope = {
    repo: undefined as unknown as ConfigRepository,
    track: (other) => {
      extra.push(other);
      return other;
    },
  };
  beforeEach(async () => {
    scope.repo = await harness.create();
  });
  afterEach(async () => {
    for (const other of extra.splice(0)) await other.close();
    await harness.destroy?.(scope.repo);
    await scope.repo.close();
  });
  return scope;
}
