/** Reads the hand-written sample files of `shared/test-fixtures/transfer/` (tests only). */
import { readFileSync } from 'node:fs';

export function fixture(name: string): string {
  return readFileSync(
    new URL(`../../test-fixtures/transfer/${name}`, import.meta.url),
    'utf8',
  );
}
