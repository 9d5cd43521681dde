/** Turns store and fetch errors into sentences a person understands. */

const VERBS: Record<string, string> = {
  GET: 'load',
  PUT: 'save',
  DELETE: 'delete',
  POST: 'send',
};

/** A short, plain description of a failure message from the stores or from `fetch`. */
export function plainWords(message: string): string {
  const call =
    /^(GET|PUT|DELETE|POST) (\S+)(?::| failed with (\d+):?) ?(.*)$/.exec(
      message,
    );
  if (call) {
    const [, method = '', path = '', status, rest = ''] = call;
    const what = describeTarget(VERBS[method] ?? 'reach', path);
    if (status !== undefined)
      return `The server refused to ${what} (error ${status})${rest ? `: ${rest}` : '.'}`;
    if (rest.includes('could not be reached'))
      return `Could not reach the server to ${what}.`;
    if (rest.includes('no answer within'))
      return `The server did not answer in time when trying to ${what}.`;
    return `Could not ${what}: ${rest}`;
  }
  if (/failed to fetch|networkerror|load failed/i.test(message))
    return 'Could not reach the server.';
  return message;
}

function describeTarget(verb: string, path: string): string {
  const config = /^\/configs\/(.+)$/.exec(path);
  if (config?.[1] !== undefined) return `${verb} "${safeDecode(config[1])}"`;
  if (path === '/configs') return `${verb} the list of configs`;
  return `${verb} ${path}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The message of any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
