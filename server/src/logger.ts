import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { FdDestination } from './log-destination.js';

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
let stdout: FdDestination | undefined;

/**
 * Standard output, written asynchronously in batches (at the default log level one system call per
 * access-log line was a fifth of the CPU time of the cheapest requests). Whatever is pending is written
 * out when the process exits, on purpose or not, unless the reader has gone or stopped reading: that
 * never holds the exit (see log-destination.ts).
 */
function stdoutDestination(): DestinationStream {
  if (stdout !== undefined) return stdout;
  const stream = new FdDestination(1);
  process.once('exit', () => stream.flushSync());
  stdout = stream;
  return stream;
}
