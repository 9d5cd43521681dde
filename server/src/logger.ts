import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';

/**
 * The structured logger: JSON lines on stdout (or `destination`, which tests use to read the lines), each
 * with an ISO 8601 UTC `time`. Request bodies and tokens are never logged; the redaction below is a
 * second line of defence for a token passed into a log call by mistake.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
): Logger {
  const options = {
    level,
    base: { service: 'linkconfig' },
    // People read these lines and correlate them with other systems: a readable UTC time beats epoch ms.
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'authorization',
        'token',
        'apiToken',
        'readToken',
        'metricsToken',
      ],
      censor: '[redacted]',
    },
  };
  return pino(options, destination ?? stdoutDestination());
}

/** The one stdout destination of this process, shared by every logger that writes there. */
let stdout: DestinationStream | undefined;

/**
 * Standard output, written asynchronously: lines that pile up while a write is in progress go out
 * together in the next one, so a busy server spends one system call on many access-log lines instead
 * of one each (at the default log level that was a fifth of the CPU time of the cheapest requests). A
 * quiet server still writes every line at once. Whatever is pending is written out when the process
 * exits, on purpose or not.
 */
function stdoutDestination(): DestinationStream {
  if (stdout !== undefined) return stdout;
  const stream = pino.destination({ dest: 1, sync: false });
  process.once('exit', () => {
    try {
      stream.flushSync();
    } catch {
      // Not open yet, or already gone: nothing more can be written.
    }
  });
  stdout = stream;
  return stream;
}
