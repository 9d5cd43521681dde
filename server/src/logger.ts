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
  return destination === undefined ? pino(options) : pino(options, destination);
}
