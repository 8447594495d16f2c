// The harness's HTTP client, over the transport (lib/http/transport.ts): it sends and records.
// Every request is counted against the budget, carries its credential as credentials.ts sets it,
// is recorded as an Exchange with the Authorization value redacted, and is retried after a 429
// only as retry.ts's loop allows. Checks receive the Exchange; they never see the key.
import { readFileSync } from 'node:fs';
import { type HttpConnection, type Sender, Transport } from '../http/transport.ts';
import type { TargetKey } from '../config/schema.ts';
import { readRateAnswer } from '../rate-limit/vocabulary.ts';
import { RefusedWithinQuotaError, RunTimeLimitError, TargetGoneError, TransportError } from '../errors.ts';
import { describeWithinQuota, refusedWithinQuota } from '../rate-limit/within-quota.ts';
import { keyLabelOf } from '../result/exchange.ts';
import type { Exchange } from '../result/exchange.ts';
import type { EarlyRefusal } from '../result/rate-limits.ts';
import { Budget } from './budget.ts';
import { addQueryCredential, assertMadeFromOwnKey, type Auth, authorise, bodyType, bodyWithCarriers, carriesKey } from './credentials.ts';
import { DEFAULT_RETRY, type RetryOptions, sendRetrying } from './retry.ts';
import { Redactor } from './redact.ts';

export interface ApiRequest {
  /** The interface's methods, others HTTP knows, or any token (the relations suite's unknown method). */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | (string & {});
  /** Relative to baseUrl, e.g. "/pets" or "/pets/12". */
  path: string;
  /**
   * The request-target as sent, base path included ("/v1/./pets?limit=2&limit=2"), not normalised
   * as a URL would be: it replaces baseUrl's path, `path` and `query` (the relations suite's spellings).
   */
  target?: string;
  /** The body sent in chunks (Transfer-Encoding: chunked) instead of under Content-Length. */
  chunked?: boolean;
  /** Header field names as sent, by their lower-case name ({ authorization: 'AUTHORIZATION' }): the credential's and the client's own included. */
  headerNames?: Record<string, string>;
  /** The respelling of a canonical request this is (relations suite): recorded on the exchange. */
  spelling?: Exchange['spelling'];
  query?: Record<string, string | number | undefined>;
  auth: Auth;
  /** Sent as is. Use lib/json.ts stringifyJson for bodies with int64 values. */
  body?: string;
  headers?: Record<string, string>;
  /** Retry 429s per the retry policy (default true). Rate-limit checks turn it off. */
  retry?: boolean;
  /** Sent after waiting out the Retry-After of the 429 answered to request `seq` (epoch ms `until`): recorded on the exchange. */
  followsRetryAfter?: { seq: number; until: number };
  /** Sent before the key's last Retry-After has passed, on purpose: why (recorded on the exchange). */
  earlyOnPurpose?: string;
  /** Sent over this connection instead of the client's own pool (see `ownConnection`). */
  connection?: Sender;
}

export interface ApiResponse {
  exchange: Exchange;
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body as text, decoded (up to the transport's limit). */
  text: string;
  /** Why the body could not be decoded (an unknown or corrupt content coding): `text` is empty, status and headers stand. */
  bodyProblem?: string;
}

export interface ClientOptions {
  baseUrl: string;
  keys: readonly TargetKey[];
  budget: Budget;
  timeoutMs: number;
  headers?: Record<string, string>;
  proxy?: string;
  caFile?: string;
  connectTimeoutMs?: number;
  /** Accept any TLS certificate (test hosts only). */
  insecure?: boolean;
  /** Epoch ms after which nothing more is sent, and no wait ends (the whole-run time limit). */
  deadline?: number;
  /** The target's window lengths, seconds: a 429 within the plan's minute quota is told apart by them. */
  windows?: { minute: number; day: number };
  /** Epoch ms from which every request with the keys is this client's (the run's start; default: the client's making). */
  knownSince?: number;
  /**
   * The run's record of each key's requests once answered (or not), each by the latest moment a
   * limiter may have counted it (lib/suite-kit/ledger.ts `sent`): with `windows`, a 429 within the
   * plan's minute quota is told apart, this client adding its requests still in flight.
   */
  requestsOf?: (label: string) => readonly number[];
  /**
   * The run's record of each key's accepted requests, each by the moment its answer came
   * (lib/suite-kit/ledger.ts `acceptedAt`): a 429 sent when they reach the day's quota within a day
   * window's length may be the day's, and is not told a refusal within the minute's quota.
   */
  acceptedOf?: (label: string) => readonly number[];
  retry?: RetryOptions;
  /** Receives every exchange once complete (the run's log). */
  onExchange?: (exchange: Exchange) => void;
  /** Told before each wait, so the console can show what is being waited for. */
  onWait?: (delayMs: number, reason: string) => void;
  sleep?: (ms: number) => Promise<void>;
  /** The client's clock, epoch ms: every time it reads (deadline, startedAt, durationMs, a wait's start) comes from it. Default Date.now. */
  now?: () => number;
  random?: () => number;
  /** First sequence number (requests sent before this client existed). */
  seqStart?: number;
  /** Label stored on each exchange: the suite that sent it. */
  suite?: string;
}

/** Kept in the record; a checked body longer than this is cut (and marked as cut). */
const RECORDED_BODY_BYTES = 64 * 1024;
/** What is kept of a request body longer than RECORDED_BODY_BYTES: its start (its length is recorded too). */
const RECORDED_REQUEST_START_BYTES = 1024;
/**
 * Requests in a row that got no response before the client stops sending: a target that hangs or
 * drops every connection would otherwise cost a timeout for each of hundreds of checks.
 */
const GIVE_UP_AFTER = 5;
/**
 * 429s of a key within the plan's minute quota after which the client no longer waits for that key:
 * a limiter that refuses below the plan's quota (one with no room for a burst, say) would make every
 * later request wait out a Retry-After. One may be another client of a shared key; two are the
 * server's. rate-limit.quota judges them.
 */
const STOP_AFTER_EARLY_REFUSALS = 2;

export class ApiClient {
  readonly redactor: Redactor;
  readonly budget: Budget;
  /** Requests on the wire now, by the key they carry: counted beside the run's record when a 429 is judged. */
  private readonly inFlight = new Map<string, number>();
  /** Each key's 429s within the plan's minute quota so far, in order, with their exchanges. */
  private readonly early = new Map<string, (EarlyRefusal & { exchange: Exchange })[]>();
  private readonly knownSince: number;
  private readonly now: () => number;
  private readonly http: Transport;
  private seq: number;
  private readonly subscribers = new Set<(exchange: Exchange) => void>();
  private failuresInARow = 0;
  suite: string;

  constructor(private readonly options: ClientOptions) {
    this.redactor = new Redactor(options.keys);
    this.budget = options.budget;
    this.seq = options.seqStart ?? 0;
    this.now = options.now ?? Date.now;
    this.knownSince = options.knownSince ?? this.now();
    this.suite = options.suite ?? 'harness';
    this.http = new Transport({
      timeoutMs: options.timeoutMs,
      ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      ...(options.caFile ? { ca: readFileSync(options.caFile) } : {}),
      ...(options.insecure ? { insecure: true } : {}),
      ...(options.proxy ? { proxy: options.proxy } : {}),
    });
  }

  /**
   * A connection of its own, apart from the client's pool, with the same transport settings:
   * requests sent with it (`connection` of a request) arrive over it. The caller closes it.
   */
  ownConnection(): HttpConnection {
    return this.http.connection();
  }

  /**
   * Records an exchange sent by other means (the load driver), numbered and labelled like the
   * client's own. The caller has already counted it against the budget.
   */
  record(exchange: Omit<Exchange, 'seq' | 'suite'>): Exchange {
    const full: Exchange = this.redactor.scrubDeep({ ...exchange, seq: this.seq++, suite: this.suite });
    this.emit(full);
    return full;
  }

  /**
   * The client's transport (its proxy, CA and connect timeout), for a load that sends its own
   * requests (the paced load) and records them with `record`.
   */
  get transport(): Transport {
    return this.http;
  }

  /** Calls fn with every exchange until the returned function is called. */
  subscribe(fn: (exchange: Exchange) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  private emit(exchange: Exchange): void {
    this.options.onExchange?.(exchange);
    for (const fn of this.subscribers) fn(exchange);
  }

  get sent(): number {
    return this.seq;
  }

  async close(): Promise<void> {
    this.http.close();
  }

  /** Sends a request, retrying 429/503 per policy (retry.ts); the final response is returned. */
  async send(req: ApiRequest): Promise<ApiResponse> {
    if (req.retry === false) return this.sendOnce(req);
    const key = 'key' in req.auth ? req.auth.key : undefined;
    if (key && this.earlyRefusals(key.label).length >= STOP_AFTER_EARLY_REFUSALS) throw this.refusedEarly(req, key, false);
    return sendRetrying(req, {
      sendOnce: (next) => this.sendOnce(next),
      giveUp: (response) => {
        if (key && response.exchange.refusedWithinQuota && this.earlyRefusals(key.label).length >= STOP_AFTER_EARLY_REFUSALS) throw this.refusedEarly(req, key, true);
      },
      keyed: carriesKey(req.auth),
      options: this.options.retry ?? DEFAULT_RETRY,
      now: this.now,
      sleep: this.options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))),
      random: this.options.random ?? Math.random,
      ...(this.options.deadline !== undefined ? { deadline: this.options.deadline } : {}),
      ...(this.options.onWait ? { onWait: this.options.onWait } : {}),
    });
  }

  /** The key's 429s within the plan's minute quota so far, in order, with their exchanges (rate-limit.quota's evidence). */
  earlyRefusals(label: string): readonly (EarlyRefusal & { exchange: Exchange })[] {
    return this.early.get(label) ?? [];
  }

  /** Why a request of a key is not sent (or, `refused`, not retried): the key's limiter refuses below the plan's quota. */
  private refusedEarly(req: ApiRequest, key: TargetKey, refused: boolean): RefusedWithinQuotaError {
    const refusals = this.earlyRefusals(key.label);
    // The request that met the second such 429 says it whole; those not sent after it, briefly.
    const why = refused
      ? `refused (429) and not retried: ${key.label} got ${refusals.length} 429s within plan ${key.plan}'s quota (the first ${describeWithinQuota(key.label, key.plan, refusals[0]!)}), so the harness stops waiting them out one request at a time`
      : `not sent: ${key.label}'s limiter refused ${refusals.length} requests within plan ${key.plan}'s quota`;
    return new RefusedWithinQuotaError(`${req.method} ${req.path} ${why} (rate-limit.quota [${key.label}] judges the limiter)`);
  }

  /** One request, no retry. Throws TransportError when no complete response arrives. */
  async sendOnce(req: ApiRequest): Promise<ApiResponse> {
    if (this.options.deadline !== undefined && this.now() >= this.options.deadline) {
      throw new RunTimeLimitError('the run time limit (budget.maxSeconds) is reached: no more requests are sent');
    }
    if (this.failuresInARow >= GIVE_UP_AFTER) {
      throw new TargetGoneError(`the target stopped answering: ${GIVE_UP_AFTER} requests in a row got no response, so no more are sent`);
    }
    assertMadeFromOwnKey(req.auth, this.options.keys);
    this.budget.take();
    const seq = this.seq++;
    const url = this.url(req);
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers, ...req.headers };
    const body = bodyWithCarriers(req.auth, req.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = bodyType(req.auth);
    }
    const auth = authorise(req.auth, headers, (text) => this.redactor.scrub(text));
    respellNames(headers, req.headerNames);
    const started = this.now();
    const label = keyLabelOf(auth);
    if (label !== undefined) this.inFlight.set(label, (this.inFlight.get(label) ?? 0) + 1);
    const base: Omit<Exchange, 'responseHeaders' | 'durationMs'> = {
      seq,
      suite: this.suite,
      method: req.method,
      url: this.redactor.scrub(url),
      auth,
      requestHeaders: this.recordHeaders(headers),
      ...(body !== undefined ? this.recordedRequestBody(body) : {}),
      ...(req.earlyOnPurpose !== undefined ? { earlyOnPurpose: req.earlyOnPurpose } : {}),
      ...(req.spelling ? { spelling: req.spelling } : {}),
      ...(req.followsRetryAfter ? { followsRetryAfter: { seq: req.followsRetryAfter.seq, until: new Date(req.followsRetryAfter.until).toISOString() } } : {}),
      startedAt: new Date(started).toISOString(),
    };
    try {
      const res = await (req.connection ?? this.http).send({
        method: req.method,
        url,
        ...(req.target !== undefined ? { target: req.target } : {}),
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(req.chunked ? { chunked: true } : {}),
      });
      const recorded = Buffer.byteLength(res.text) > RECORDED_BODY_BYTES;
      const answeredAt = this.now();
      const early = this.earlyRefusal(req.auth, started, answeredAt, res.status, res.headers);
      const exchange: Exchange = {
        ...base,
        status: res.status,
        ...(res.interim.length > 0 ? { interim: res.interim.map((i) => i.status) } : {}),
        responseHeaders: this.recordHeaders(res.headers),
        responseBody: this.redactor.scrub(recorded ? truncateUtf8(res.text, RECORDED_BODY_BYTES) : res.text),
        // A body it could not decode is a body no check has seen: marked as cut, as one too long is.
        ...(res.truncated || recorded || res.bodyProblem ? { responseBodyTruncated: true } : {}),
        ...(early ? { refusedWithinQuota: early } : {}),
        durationMs: answeredAt - started,
      };
      if (early && 'key' in req.auth) this.early.set(req.auth.key.label, [...this.earlyRefusals(req.auth.key.label), { ...early, seq, suite: this.suite, at: answeredAt, exchange }]);
      this.emit(exchange);
      this.failuresInARow = 0;
      return { exchange, status: res.status, headers: res.headers, text: res.text, ...(res.bodyProblem ? { bodyProblem: res.bodyProblem } : {}) };
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      const code = err.cause_code;
      const exchange: Exchange = { ...base, responseHeaders: {}, transportError: code, durationMs: this.now() - started };
      this.emit(exchange);
      this.failuresInARow += 1;
      throw new TransportError(`${req.method} ${this.redactor.scrub(url)}: no response (${code}: ${this.redactor.scrub(err.message)})`, code);
    } finally {
      // Recorded by now (emitted to the run's record), or never to be.
      if (label !== undefined) this.inFlight.set(label, this.inFlight.get(label)! - 1);
    }
  }

  /**
   * A 429 to a request with a configured key, within the plan's minute quota by the run's record of
   * the key's requests and those still in flight beside it (this one among them).
   */
  private earlyRefusal(auth: Auth, sentAt: number, answeredAt: number, status: number, headers: Record<string, string>) {
    const { windows, requestsOf, acceptedOf } = this.options;
    if (status !== 429 || !('key' in auth) || windows === undefined || requestsOf === undefined) return undefined;
    const { key } = auth;
    const counted = [...requestsOf(key.label), ...Array.from({ length: this.inFlight.get(key.label) ?? 0 }, () => Number.POSITIVE_INFINITY)];
    return refusedWithinQuota(counted, { sentAt, answer: readRateAnswer(answeredAt, status, headers) }, { quota: key.quota, windows, knownSince: this.knownSince, acceptedAt: acceptedOf?.(key.label) });
  }

  private url(req: ApiRequest): string {
    if (req.target !== undefined) {
      // As sent: the origin and the raw target, so that no dot segment or repeat is normalised away.
      if (req.query !== undefined || !('key' in req.auth || 'none' in req.auth)) throw new Error('a raw request target carries its own query, and a key only in the Authorization header');
      return new URL(this.options.baseUrl).origin + req.target;
    }
    const url = new URL(this.options.baseUrl + req.path);
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.append(name, String(value));
    }
    addQueryCredential(url, req.auth);
    return url.toString();
  }

  /**
   * A request body as recorded: whole up to the record limit; a longer one (an oversized body sent
   * on purpose) by its start and its whole length in bytes, so that no report holds it whole.
   */
  private recordedRequestBody(body: string): Pick<Exchange, 'requestBody' | 'requestBodyBytes'> {
    const bytes = Buffer.byteLength(body);
    if (bytes <= RECORDED_BODY_BYTES) return { requestBody: this.redactor.scrub(body) };
    return { requestBody: this.redactor.scrub(truncateUtf8(body, RECORDED_REQUEST_START_BYTES)), requestBodyBytes: bytes };
  }

  /** Configured keys become "[REDACTED:free#1]"; credentials a check made up stay readable. */
  private recordHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      out[name] = this.redactor.scrub(value);
    }
    return out;
  }
}

/** Renames headers in place to the field names given, by lower-case name (field names are case-insensitive: RFC 9110 §5.1). */
function respellNames(headers: Record<string, string>, names: Record<string, string> | undefined): void {
  for (const [lower, spelled] of Object.entries(names ?? {})) {
    const name = Object.keys(headers).find((n) => n.toLowerCase() === lower);
    if (name === undefined || name === spelled) continue;
    headers[spelled] = headers[name]!;
    delete headers[name];
  }
}

function truncateUtf8(text: string, bytes: number): string {
  return Buffer.from(text, 'utf8').subarray(0, bytes).toString('utf8').replace(/\uFFFD$/, '');
}
