/**
 * URL sanitization (docs/expression-reference.md §15). Section numbers (§) and rule ids (P, D) in the test
 * names are that document's.
 */
import { describe, expect, it } from 'vitest';
import { sanitizeUrl } from './sanitize-url.js';

describe('URL sanitization (§15)', () => {
  it.each([
    'javascript:x',
    'JAVAscript:x',
    '\tjavascript:x',
    '\u00a0javascript:x',
    '\ufeffjavascript:x',
    'java\rscript:x',
    'ja\u001fvascript:x',
    'javascript\u007f:x',
    'data :x',
    'Data:image/gif;base64,R0lGOD',
    'vbScript:x',
    'Blob:https://h/1',
    '  \u0000javascript\u3000:alert(1)',
    'javascript\u2028:x',
  ])('blocks %j', (url) => {
    expect(sanitizeUrl(url)).toBe('about:blank');
  });

  it.each([
    '',
    'java script:x',
    'javascript\u200b:x',
    'javascript%3Ax',
    '&#x6A;avascript:x',
    'file:///x',
    'ftp://h',
    'tel:1',
    'mailto:m@h',
    'about:x',
    'myapp:x',
    '//h/p',
    'relative/path',
    ' https://h/\u0001 ',
    'https://h/\tx',
    'javascriptx:y',
    'datax:y',
    'jаvascript:x',
    'java\u017fcript:x',
  ])('returns %j unchanged', (url) => {
    expect(sanitizeUrl(url)).toBe(url);
  });

  it('is idempotent', () => {
    for (const url of ['javascript:x', 'https://h', ' data:x']) {
      expect(sanitizeUrl(sanitizeUrl(url))).toBe(sanitizeUrl(url));
    }
  });
});
