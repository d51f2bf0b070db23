/**
 * HTTP load with autocannon (programmatic API). autocannon ships no type declarations, so the small part of its
 * interface used here is declared below.
 */

interface AutocannonOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  duration?: number;
  requests?: Array<{ setupRequest?: (request: { body?: string }) => { body?: string } }>;
  timeout?: number;
}
interface AutocannonHistogram {
  average: number;
  mean: number;
  p50: number;
  p99: number;
  total: number;
}
interface AutocannonResult {
  requests: AutocannonHistogram & { sent: number };
  throughput: AutocannonHistogram;
  latency: AutocannonHistogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: AutocannonOptions) => Promise<AutocannonResult>;

// autocannon is CommonJS without type declarations; the part used is declared above.
const autocannon = require("autocannon") as Autocannon;

let nextId = 0;

/** One load run. */
export interface LoadOptions {
  /** Full URL, e.g. `http://127.0.0.1:8787/api/v1/vaults`. */
  url: string;
  /** HTTP method; default GET. */
  method?: "GET" | "POST";
  /** Request headers. */
  headers?: Record<string, string>;
  /** Request body; `{n}` in it is replaced by a counter that is unique per request (for unique names). */
  body?: string;
  /** Concurrent keep-alive connections. */
  connections: number;
  /** Seconds of load. */
  durationS: number;
}

/** What a load run measured. */
export interface LoadResult {
  /** Mean completed requests per second over the run. */
  requestsPerSec: number;
  /** Median latency in milliseconds. */
  latencyP50Ms: number;
  /** 99th percentile latency in milliseconds. */
  latencyP99Ms: number;
  /** Completed requests. */
  completed: number;
  /** Mean response size (headers and body) in bytes. */
  bytesPerResponse: number;
  /** Responses by status code. */
  statusCodes: Record<string, number>;
  /** Socket errors plus timeouts. */
  errors: number;
}

/** Runs autocannon against `options.url`. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const template = options.body;
  // autocannon's own `idReplacement` sends nothing at all with a JSON body (autocannon 8.0.0: 0 requests
  // completed, no error reported), so unique bodies are built per request here instead.
  const unique = template?.includes("{n}") === true;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? "GET",
    headers: options.headers,
    body: unique ? undefined : template,
    requests: unique
      ? [{ setupRequest: (request) => ({ ...request, body: template!.replace("{n}", String(nextId++)) }) }]
      : undefined,
    connections: options.connections,
    duration: options.durationS,
    timeout: 10,
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats)) statusCodes[code] = stat.count;
  return {
    requestsPerSec: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    completed: result.requests.total,
    bytesPerResponse: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    statusCodes,
    errors: result.errors + result.timeouts,
  };
}
