import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Builds the web page (issue #5) from web-client/app into web-client/dist-app, which the server serves
 * at `/`. The workspace packages are read from source, so no prior `tsc -b` is needed.
 */
export default defineConfig({
  root: here('./app'),
  base: '/',
  publicDir: false,
  resolve: {
    alias: {
      '@linkconfig/web-client': here('./src/index.ts'),
      '@linkconfig/shared': here('../shared/src/index.ts'),
    },
  },
  build: {
    outDir: here('./dist-app'),
    emptyOutDir: true,
    target: 'es2022',
    // No source maps in the production build: the server serves this folder as it is.
    sourcemap: false,
    rollupOptions: {
      // The service worker must keep a fixed name at the root to control the whole page.
      input: { index: here('./app/index.html'), sw: here('./app/sw.ts') },
      output: {
        entryFileNames: (chunk) =>
          chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js',
      },
    },
  },
});
