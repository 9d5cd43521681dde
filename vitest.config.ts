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

export default defineConfig({
  resolve: { alias },
  test: {
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
