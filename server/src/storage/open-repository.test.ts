import { describe, expect, it } from 'vitest';
import { describeDatabase } from './open-repository.js';

describe('describeDatabase', () => {
  it('leaves credentials out', () => {
    expect(describeDatabase('postgres://u:secret@h:5432/db?schema=s')).toBe(
      'postgres://h:5432/db?schema=s',
    );
  });
});
