/**
 * The shape the benchmark measures, whoever started the server.
 */
/** What the benchmark needs of a server it measures: one it started (ChildServer) or a reference. */
export interface MeasuredServer {
  readonly baseUrl: string;
  /** The process id, or null when unknown (a reference given without one). */
  readonly pid: number | null;
  readonly exited: boolean;
  readonly exitStatus: string;
  /** Its last output, for error messages ('' when the benchmark does not see it). */
  readonly output: string;
  /** Resident set size of its processes, KiB, or null. */
  rssKiB(): Promise<number | null>;
  /** CPU time of its processes so far, µs, or null. */
  cpuMicros(): Promise<number | null>;
  stop(): Promise<void>;
}
