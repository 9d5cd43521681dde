// Bundles the web client's declarations (written by `tsc -b` to dist/types) into the one dist/index.d.ts
// the package ships. The bundle carries the server's router type itself, so a browser project gets typed
// tRPC calls without installing @linkconfig/server or any of its dependencies.
import { fileURLToPath } from 'node:url';
import { dts } from 'rollup-plugin-dts';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

export default {
  input: here('./dist/types/index.d.ts'),
  output: { file: here('./dist/index.d.ts'), format: 'es' },
  plugins: [
    dts({
      tsconfig: here('./tsconfig.json'),
      // Inlined: the router type and the one type of trpc-to-openapi it mentions (the procedures' meta).
      // Everything else stays an import of a package the web client depends on.
      includeExternal: ['@linkconfig/server', 'trpc-to-openapi'],
    }),
  ],
  onwarn(warning, warn) {
    // trpc-to-openapi's declarations import Node's `http` and their own adapters for types the bundle
    // does not use; they are tree-shaken (the packaging test checks the bundle imports nothing else).
    const fromTrpcToOpenapi =
      warning.code === 'UNUSED_EXTERNAL_IMPORT' &&
      (warning.ids ?? []).some((id) => id.includes('/trpc-to-openapi/'));
    if (
      (warning.code === 'UNRESOLVED_IMPORT' && warning.exporter === 'http') ||
      fromTrpcToOpenapi
    )
      return;
    warn(warning);
  },
};
