/**
 * What the page remembers in this browser (localStorage): the server token, the open config, and the
 * names the server listed last (so the list can show them, marked, while the server is out of reach).
 * Storage can be unavailable (blocked, full, private mode): then the page simply forgets.
 */

const KEYS = {
  token: 'linkconfig.token',
  openConfig: 'linkconfig.open-config',
  serverNames: 'linkconfig.server-names',
  readOnly: 'linkconfig.token-read-only',
} as const;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage refused: the page works on, it only does not remember this.
  }
}

/** The token to send to the server, or null when none was entered. */
export function readToken(): string | null {
  const token = read(KEYS.token);
  return token === '' ? null : token;
}

/** Keeps (or, with null, forgets) the server token. */
export function writeToken(token: string | null): void {
  write(KEYS.token, token);
}

/** The config that was open last time. */
export function readOpenConfig(): string | null {
  return read(KEYS.openConfig);
}

/** Remembers the open config (null: none). */
export function writeOpenConfig(name: string | null): void {
  write(KEYS.openConfig, name);
}

/** The names the server listed last time it answered, or null if it never did. */
export function readServerNames(): string[] | null {
  const text = read(KEYS.serverNames);
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((n) => typeof n === 'string')
      ? value
      : null;
  } catch {
    return null;
  }
}

/** Remembers the server's latest list of names. */
export function writeServerNames(names: readonly string[]): void {
  write(KEYS.serverNames, JSON.stringify(names));
}

/** Whether the server refused a write with the current token (so editing is off before trying again). */
export function readTokenReadOnly(): boolean {
  return read(KEYS.readOnly) === 'true';
}

/** Remembers whether the current token may only read; forgotten when the token changes. */
export function writeTokenReadOnly(readOnly: boolean): void {
  write(KEYS.readOnly, readOnly ? 'true' : null);
}
