import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) =>
  fileURLToPath(new URL(`./${pkg}/src/index.ts`, import.meta.url));

/** Workspace packages resolve to their sources in tests, so no build is needed first. */
const alias = {
  '@linkconfig/shared': src('shared'),
  '@linkconfig/server': src('server'),
  '@linkconfig/web-client': src('web-client'),
};

/**
 * Server files whose bounds are of wall-clock time, or whose work (thousands of requests against real
 * server processes, SQLite files or PostgreSQL; heavy child processes) must end within a test timeout:
 * they run alone, never beside another file.
 */
const ALONE = [
  'test/shutdown.test.ts',
  'test/refused-settings.test.ts',
  'src/heap.test.ts',
  'test/durability.test.ts',
  'test/sqlite-processes.test.ts',
  'test/events-catch-up.test.ts',
  'test/hooks-delivery.test.ts',
  'src/storage/postgres/postgres-config-repository.test.ts',
];

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default in a run is one worker fewer than the cores: a single worker on a 2-core CI
    // machine, idle while most server files wait on sockets, child processes and disks. At least two
    // here. Every file runs in its own process (the default `forks` pool, isolated) with its own
    // temporary directories, free ports and Postgres schemas, so files may run side by side.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'shared',
          root: './shared',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          root: './server',
          include: [
            'src/**/*.test.ts',
            'test/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          exclude: ALONE,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server-alone',
          root: './server',
          include: ALONE,
          // After every other project, one file at a time, as the whole suite ran before.
          sequence: { groupOrder: 1 },
          maxWorkers: 1,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'web-client',
          root: './web-client',
          setupFiles: ['./test/setup.ts'],
          include: [
            'src/**/*.test.ts',
            'test/**/*.test.ts',
            'app/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'scripts',
          root: './scripts',
          include: ['**/*.test.ts'],
        },
      },
    ],
  },
});
