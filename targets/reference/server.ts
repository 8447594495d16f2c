// Starts the reference server on node:http: wires config, store, keys, limiter, faults, variations
// and stats into the handler, and answers malformed HTTP with an Error body too.
import { STATUS_CODES, createServer, type RequestListener } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createApp } from './app.ts';
import { KeyRing, type Client } from './auth.ts';
import { configPlans, parseServerConfig, type ServerConfig, type ServerConfigInput } from './config.ts';
import { Delivery } from './delivery.ts';
import { Faults, type FaultId } from './faults.ts';
import { JSON_TYPE, type WireForm } from './http.ts';
import { RateLimiter, type RateLimiterOptions, type WindowLengths } from './rate-limit.ts';
import { ANONYMOUS, StatsRecorder, type ServerStats } from './stats.ts';
import { AnimalStore, readLagMs } from './store.ts';
import { JSON_TYPE_UTF8, Variations, type VariationId } from './variations.ts';

export type { ServerStats } from './stats.ts';

export interface ServerOptions {
  /**
   * The true clock in epoch milliseconds, for the rate limiter, the Date header when the server
   * writes it, and connection ages. Tests inject one to move time without sleeping.
   */
  now?: () => number;
  /** Waits on that clock (a delivery's delay, a fault's pause). Default a real timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** What only a server on sockets has: the wire's form (interim answers, framings, codings). */
interface BuildOptions extends ServerOptions {
  /** No socket (the in-process server): replies are handed over as they are. */
  socketless?: boolean;
}

export interface RunningServer {
  port: number;
  /** `http://127.0.0.1:PORT` (or the configured host), without a trailing slash. */
  origin: string;
  /** origin + '/v1' */
  baseUrl: string;
  /** The configured keys as labels and plans; never the keys. */
  clients: Client[];
  windows: WindowLengths;
  faults: FaultId[];
  variations: VariationId[];
  stats(): ServerStats;
  /** Stops listening and closes every connection, keep-alive ones included. */
  close(): Promise<void>;
}

/** Variation ban-after-ignoring-429: early retries in a row that get a key banned. */
export const BAN_AFTER_EARLY_RETRIES = 5;

/** Variation ban-after-3-early: early retries in a row that get a key banned, and the ban's length in minute windows. */
export const STRICT_BAN = { afterEarlyRetries: 3, windows: 2 } as const;

/** Variation first-key-banned: the ban on the first configured key, in minute windows from the server's start. */
export const EARLIER_BAN_WINDOWS = 10;

/** Variations clock-ahead and clock-behind: how far the server's clock is off. */
export const CLOCK_SKEW_MS = 5_000;

/** Variation reset-jitter: the most noise added to the moment X-RateLimit-Reset is rounded from. */
export const RESET_JITTER_MS = 600;
/** Variation retry-after-fractional-wait: the fixed windows end this long after a whole second. */
export const FRACTIONAL_WINDOW_OFFSET_MS = 498;

/** Variation keep-alive-1s: the idle keep-alive timeout, and the age at which a connection is closed. */
export const KEEP_ALIVE_MS = 1_000;
/** Fault rate-slow-refill: the minute bucket refills at this share of the plan's rate. */
const SLOW_REFILL = 1 / 3;

const CLIENT_ERRORS: Readonly<Record<string, [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout'],
};

/** The reference server's parts, wired from its config: what the socket server and the in-process one share. */
export interface ReferenceParts {
  config: ServerConfig;
  app: RequestListener;
  /** The server's clock (skewed by clock-ahead and clock-behind). */
  now: () => number;
  store: AnimalStore;
  keys: KeyRing;
  plans: ReturnType<typeof configPlans>;
  limiter: RateLimiter;
  faults: Faults;
  variations: Variations;
  stats: StatsRecorder;
  delivery: Delivery;
}

/** Wires config, store, keys, limiter, faults, variations, stats and delivery into the handler. */
export function buildReference(input: ServerConfigInput | ServerConfig, options: BuildOptions = {}): ReferenceParts {
  const config = parseServerConfig(input);
  const variations = new Variations(config.variations);
  const trueNow = options.now ?? Date.now;
  const skewMs = (variations.has('clock-ahead') ? CLOCK_SKEW_MS : 0) - (variations.has('clock-behind') ? CLOCK_SKEW_MS : 0);
  const now = skewMs === 0 ? trueNow : () => trueNow() + skewMs;
  const store = new AnimalStore({
    idsBeyond2to53: variations.has('ids-beyond-2^53'),
    idsSharded: variations.has('ids-sharded'),
    idsNegative: variations.has('ids-negative'),
    idsNearMax: variations.has('ids-near-2^63'),
    defaultStatus: variations.has('status-default-available') ? 'available' : undefined,
    now,
    ...(variations.has('read-lag') ? { readLagMs } : {}),
  });
  store.preload(config.preload);
  const faults = new Faults(config.faults);
  const keys = new KeyRing(config.keys, { looseMatching: faults.has('auth-key-prefix-accepted') || faults.has('auth-key-case-insensitive') });
  const plans = configPlans(config);
  const limiter = new RateLimiter(config.windows, now, {
    countRefused: variations.has('rejected-count-against-quota'),
    tokenBucket: variations.has('sliding-window'),
    slidingLog: variations.has('sliding-log'),
    windowPerKey: variations.has('window-per-key'),
    windowOffsetMs: variations.has('retry-after-fractional-wait') ? FRACTIONAL_WINDOW_OFFSET_MS : undefined,
    ...banOptions(variations),
    resetJitterMs: variations.has('reset-jitter') ? RESET_JITTER_MS : undefined,
    extraPerMinute: faults.has('rate-one-too-many') ? 1 : 0,
    extraPerDay: faults.has('rate-day-one-too-many') || faults.has('rate-day-overrun-ban') ? 1 : 0,
    describeDay: variations.has('headers-day-window'),
    describeMinute: variations.has('headers-minute-window') || faults.has('rate-day-429-minute-remaining'),
    dayRefusalMinuteRemaining: faults.has('rate-day-429-minute-remaining'),
    enforceDay: !faults.has('rate-daily-not-enforced'),
    minuteRefill: faults.has('rate-slow-refill') ? SLOW_REFILL : undefined,
    noBurst: faults.has('rate-no-burst'),
    reportWindows: faults.has('rate-headers-mixed-windows') || faults.has('rate-remaining-of-day') || faults.has('rate-limit-of-day-window-of-minute'),
  });
  const first = keys.clients()[0];
  if (variations.has('first-key-banned') && first) limiter.ban(first.label, now() + EARLIER_BAN_WINDOWS * config.windows.minute * 1000);
  const stats = new StatsRecorder();
  const delivery = new Delivery({
    now,
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ownDate: variations.has('clock-ahead') || variations.has('clock-behind') || variations.has('several-instances') || variations.has('instances-clock-skew'),
    slow: variations.has('slow-responses'),
    farAway: variations.has('far-away'),
    reordered: variations.has('answers-reordered'),
    instances: variations.has('several-instances'),
    skewedConnections: variations.has('instances-clock-skew'),
    connectionMs: variations.has('keep-alive-1s') ? KEEP_ALIVE_MS : undefined,
    latencyGrowsWithLoad: faults.has('latency-grows-with-load'),
    ...(options.socketless ? {} : { wire: wireForm(variations), slowBody: variations.has('slow-body') }),
  });
  const app = createApp({ store, keys, plans, limiter, faults, variations, stats, delivery, ...(options.sleep ? { sleep: options.sleep } : {}) });
  return { config, app, now, store, keys, plans, limiter, faults, variations, stats, delivery };
}

export async function startReferenceServer(
  input: ServerConfigInput | ServerConfig,
  options: ServerOptions = {},
): Promise<RunningServer> {
  const { config, app, store, keys, plans, limiter, faults, variations, stats, delivery } = buildReference(input, options);
  const jsonType = variations.has('charset-utf8') ? JSON_TYPE_UTF8 : JSON_TYPE;
  const server = createServer(app);
  delivery.attach(server);

  // Requests node:http cannot parse (or that time out) never reach the handler. Answer them in the interface's
  // shape anyway (Error body, rate-limit headers from the anonymous bucket) and close.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, code] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'invalid_request'];
    const rate = limiter.take(ANONYMOUS, plans.free!, { enforce: false });
    const body = JSON.stringify({ code, message: `request rejected before it could be read (${err.code ?? 'parse error'})`, status });
    stats.record({ keyLabel: ANONYMOUS, plan: 'free', method: '', status, earlyRetry: rate.earlyRetry });
    const date = delivery.date();
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        (date === undefined ? '' : `Date: ${date}\r\n`) +
        `Content-Type: ${jsonType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-RateLimit-Limit: ${rate.limit}\r\nX-RateLimit-Remaining: ${rate.remaining}\r\nX-RateLimit-Reset: ${rate.reset}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const port = (server.address() as AddressInfo).port;
  const origin = `http://${connectHost(config.host)}:${port}`;
  return {
    port,
    origin,
    baseUrl: `${origin}/v1`,
    clients: keys.clients(),
    windows: { ...config.windows },
    faults: faults.list(),
    variations: variations.list(),
    stats: () => stats.snapshot(store.size),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The wire's form the variations ask: several codings at once are applied in catalogue order; close-delimited wins over chunked-bodies. */
function wireForm(variations: Variations): WireForm {
  const interim = [...(variations.has('interim-100-102') ? [100, 102] as const : []), ...(variations.has('early-hints-103') ? [103] as const : [])];
  const codings = (['gzip', 'deflate', 'br'] as const).filter((coding) => variations.has(`${coding}-always`));
  const framing = variations.has('close-delimited') ? 'close' : variations.has('chunked-bodies') ? 'chunked' : undefined;
  return { ...(interim.length > 0 ? { interim } : {}), ...(codings.length > 0 ? { codings } : {}), ...(framing ? { framing } : {}) };
}

/** The stricter ban variation wins when both are on. */
function banOptions(variations: Variations): RateLimiterOptions {
  if (variations.has('ban-after-3-early')) return { banAfterEarlyRetries: STRICT_BAN.afterEarlyRetries, banWindows: STRICT_BAN.windows };
  if (variations.has('ban-after-ignoring-429')) return { banAfterEarlyRetries: BAN_AFTER_EARLY_RETRIES };
  return {};
}

/** A host a client can connect to: wildcard addresses become loopback, IPv6 gets brackets. */
function connectHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
