// Counters that tests (and the harness's own end-to-end tests) read to see what the server was
// sent. Keys appear only as labels (`free#1`); unauthenticated requests count under "anonymous".

export const ANONYMOUS = 'anonymous';

export interface KeyStats {
  plan: string;
  requests: number;
  byStatus: Record<string, number>;
  /** Requests answered 429. */
  rateLimited: number;
  /** Requests that arrived before a Retry-After given to this key had passed. */
  earlyRetries: number;
  /** Bans imposed on this key (ban variations); not the requests refused during them. */
  bans: number;
  /**
   * One entry per blocked period, in order: the early requests (before the Retry-After given had
   * passed) after the 429 that started it. A period ends at the first request that is let through
   * or comes after the Retry-After given had passed.
   */
  earlyByEpisode: number[];
}

export interface ServerStats {
  requests: number;
  byStatus: Record<string, number>;
  /** By key label, plus "anonymous". */
  byKey: Record<string, KeyStats>;
  posts: number;
  rateLimited: number;
  earlyRetries: number;
  bans: number;
  /** Responses with a 5xx status. */
  serverErrors: number;
  /** Unexpected exceptions turned into a 500. */
  exceptions: number;
  /** Animals in the store. */
  pets: number;
}

export interface ExchangeRecord {
  keyLabel: string;
  plan: string;
  method: string;
  status: number;
  earlyRetry: boolean;
  /** This request got its key banned. */
  banStarted?: boolean;
}

export class StatsRecorder {
  private readonly stats: Omit<ServerStats, 'pets'> = {
    requests: 0,
    byStatus: {},
    byKey: {},
    posts: 0,
    rateLimited: 0,
    earlyRetries: 0,
    bans: 0,
    serverErrors: 0,
    exceptions: 0,
  };

  /** Key labels in a blocked period. */
  private readonly blocked = new Set<string>();

  record(exchange: ExchangeRecord): void {
    const s = this.stats;
    const key = (s.byKey[exchange.keyLabel] ??= {
      plan: exchange.plan,
      requests: 0,
      byStatus: {},
      rateLimited: 0,
      earlyRetries: 0,
      bans: 0,
      earlyByEpisode: [],
    });
    const status = String(exchange.status);
    s.requests++;
    key.requests++;
    s.byStatus[status] = (s.byStatus[status] ?? 0) + 1;
    key.byStatus[status] = (key.byStatus[status] ?? 0) + 1;
    if (exchange.method === 'POST') s.posts++;
    if (exchange.status === 429) {
      s.rateLimited++;
      key.rateLimited++;
    }
    if (exchange.earlyRetry) {
      s.earlyRetries++;
      key.earlyRetries++;
    }
    if (exchange.banStarted) {
      s.bans++;
      key.bans++;
    }
    if (exchange.status >= 500) s.serverErrors++;
    this.recordEpisode(exchange, key);
  }

  private recordEpisode({ keyLabel, status, earlyRetry }: ExchangeRecord, key: KeyStats): void {
    if (this.blocked.has(keyLabel)) {
      if (earlyRetry) key.earlyByEpisode[key.earlyByEpisode.length - 1]!++;
      if (!earlyRetry || status !== 429) this.blocked.delete(keyLabel);
    }
    if (status === 429 && !this.blocked.has(keyLabel)) {
      key.earlyByEpisode.push(0);
      this.blocked.add(keyLabel);
    }
  }

  recordException(): void {
    this.stats.exceptions++;
  }

  /** A deep copy: later requests do not change it. */
  snapshot(pets: number): ServerStats {
    return { ...structuredClone(this.stats), pets };
  }
}
