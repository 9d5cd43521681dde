/**
 * Checks of what a person types into the page, each answering `null` (fine) or one sentence to show
 * beside the field. The rules are the server's and the expression engine's (config names, stored
 * configs, the search-pattern safety rule, blocked URL schemes), said in plain words.
 */
import {
  ConfigNameSchema,
  droppedTags,
  isSafePattern,
  isBlockedKey,
  sanitizeUrl,
  tagsFromText,
} from '@linkconfig/shared';
import type { Settings } from '@linkconfig/shared';

/** A problem with one input, in words for the person; `null` when the input is fine. */
export type InputProblem = string | null;

/** Letters, digits and `_`: all an expression can name after `.`, `@` or as an id. */
const WORD = /^\w+$/;

/** A URL scheme at the very start (`https:`, `mailto:`, `my+app:`). */
const SCHEME = /^([a-z][a-z\d+.-]*):/i;

// eslint-disable-next-line no-control-regex -- control characters are what the sanitizer ignores too
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

/** A name expressions can refer to: letters, digits and `_`, not one of the reserved keys. */
function checkWord(value: string, what: string): InputProblem {
  if (value === '') return `Enter ${what}.`;
  if (value.includes('-'))
    return 'Leave out "-": expressions read it as "without".';
  if (/\s/.test(value))
    return 'Leave out spaces: expressions end a name at a space.';
  if (!WORD.test(value))
    return 'Use only letters, digits and _: expressions cannot name other characters.';
  if (isBlockedKey(value)) return `"${value}" is reserved; choose another.`;
  return null;
}

/** A new config's name, by the server's rule (1–256 characters, no control characters). */
export function checkConfigName(name: string): InputProblem {
  if (name.trim() === '') return 'Enter a name for the new config.';
  const result = ConfigNameSchema.safeParse(name);
  if (result.success) return null;
  return `This cannot be a config name: ${result.error.issues[0]?.message ?? 'it is not valid'}.`;
}

/** A link id: what an expression names it by. */
export function checkLinkId(id: string): InputProblem {
  return checkWord(id.trim(), 'an id, such as docs');
}

/**
 * A link URL: present, not a blocked scheme (those that can run code become `about:blank`), with a
 * scheme, and readable as a URL.
 */
export function checkUrl(url: string): InputProblem {
  const text = url.trim();
  if (text === '') return 'Enter a URL, such as https://example.com/page.';
  if (sanitizeUrl(text) !== text) {
    const scheme = SCHEME.exec(
      text.replace(CONTROL_CHARS, '').replace(/\s+/g, ''),
    )?.[1];
    return `Links starting with "${scheme ?? 'this'}:" are blocked because they can run code in the page; use a web address such as https://example.com.`;
  }
  const scheme = SCHEME.exec(text)?.[1];
  // "example.com:8080/x" and "localhost:3000" look like a scheme but are a host and a port.
  const hostAndPort = /^[^:/\s]+:\d+(?:[/?#]|$)/.test(text);
  if (scheme === undefined || scheme.includes('.') || hostAndPort)
    return `Add the scheme at the start, for example https://${text.replace(/^\/+/, '')}.`;
  if (!URL.canParse(text)) return 'This is not a valid URL.';
  return null;
}

/**
 * The tags field: every typed tag must keep a name under the one tag rule (`tagsFromText` in shared
 * stores them lower-cased, accents off, other characters as `_`); a tag the rule would leave empty is
 * refused rather than dropped unseen.
 */
export function checkTags(text: string): InputProblem {
  const [dropped] = droppedTags(text);
  return dropped === undefined
    ? null
    : `Tag "${dropped}" has no letter a-z, digit or _ to keep, so the tag rule would drop it; name it with Latin letters or digits.`;
}

/** What the tags field is stored as, when that differs from what was typed (`null` when it does not). */
export function storedTagsNote(text: string): string | null {
  const stored = tagsFromText(text);
  const typed = text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (stored.length === 0 || stored.join(',') === typed.join(',')) return null;
  return `Stored as: ${stored.join(', ')}`;
}

/** A macro name: what `@name` refers to. */
export function checkMacroName(name: string): InputProblem {
  return checkWord(name.trim(), 'a name, such as cars');
}

/** A macro's expression: the text `@name` stands for. */
export function checkMacroExpression(expression: string): InputProblem {
  return expression.trim() === ''
    ? 'Enter the expression this macro stands for, such as .car | .bike.'
    : null;
}

/** A search-pattern key: what `/key/` refers to. */
export function checkPatternKey(key: string): InputProblem {
  const text = key.trim();
  if (text.includes('/'))
    return 'Leave out "/": in /key/ the key ends at the first slash.';
  if (text.includes('|'))
    return 'Leave out "|": in /key/ it starts the field letters.';
  return checkWord(text, 'a key, such as bridges');
}

/**
 * A stored search pattern: a valid regular expression that passes the engine's safety rule (no
 * quantified group that holds another quantifier, which could make matching very slow).
 */
export function checkPattern(pattern: string): InputProblem {
  if (pattern === '') return 'Enter a regular expression, such as bridge.';
  const syntax = checkRegExp(pattern);
  if (syntax !== null) return syntax;
  if (!isSafePattern(pattern))
    return 'A repeated group may not contain another repetition, as in (a+)+: such patterns can take very long to match.';
  return null;
}

/** A regular expression as the browser reads it (for search patterns and the regex search). */
export function checkRegExp(pattern: string): InputProblem {
  try {
    new RegExp(pattern);
    return null;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return `This is not a valid regular expression (${detail}).`;
  }
}

/** The field letters of a search pattern: l, u, t, d, k, a (commas and spaces allowed). */
export function checkPatternFields(fields: string): InputProblem {
  return /^[lutdka,\s]*$/.test(fields)
    ? null
    : 'Use the letters l (label), u (URL), t (tags), d (description), k (id) or a (all).';
}

/** A search pattern's result limit: empty, or a whole number. */
export function checkPatternLimit(limit: string): InputProblem {
  return /^\s*(-?\d+)?\s*$/.test(limit)
    ? null
    : 'Enter a whole number, or leave it empty for the default (100).';
}

/** What {@link parseSettings} found: settings (or none), or a problem. */
export type SettingsParse =
  { ok: true; settings: Settings | undefined } | { ok: false; problem: string };

/** Reads the settings text: empty means no settings; otherwise a JSON object. */
export function parseSettings(text: string): SettingsParse {
  if (text.trim() === '') return { ok: true, settings: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `This is not valid JSON (${detail}).` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      ok: false,
      problem: 'Settings must be a JSON object, such as {"listType": "ul"}.',
    };
  return { ok: true, settings: value as Settings };
}
