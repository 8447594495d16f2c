// The rate-limit driver's wire to a reference server in this process, on a virtual clock: looks
// and both parts of a burst go through the harness's own code (only the connection is simulated).
// Every request is recorded as the client records it, and every accepted one reaches the run's
// ledger, so that the checks judge what the harness would have judged.
import { Budget } from '../../lib/client/budget.ts';
import type { TargetKey } from '../../lib/config/schema.ts';
import type { Phases } from '../../lib/load/approach.ts';
import { careful } from '../../lib/load/careful.ts';
import type { Clock } from '../../lib/load/clock.ts';
import { type Connect, fast } from '../../lib/load/fast.ts';
import type { Recorder, Wire } from '../../lib/drive/drive-context.ts';
import type { Exchange } from '../../lib/result/exchange.ts';
import { AcceptedLedger, type DayOf } from '../../lib/suite-kit/ledger.ts';
import type { InProcessResponse, InProcessServer } from '../../targets/reference/in-process.ts';

export interface SimOptions {
  /** Network time each way, ms (default 1). */
  latencyMs?: number;
  budget?: number;
}

export interface Sim {
  wire: Wire;
  /** Every request sent, as the client records it, in order. */
  exchanges: Exchange[];
  ledger: AcceptedLedger;
}

export function simWire(server: InProcessServer, clock: Clock, options: SimOptions = {}, dayOf?: DayOf): Sim {
  const oneWay = options.latencyMs ?? 1;
  const exchanges: Exchange[] = [];
  const ledger = new AcceptedLedger(dayOf);
  let seq = 0;
  let connections = 0;
  const recorder: Recorder = {
    record(e) {
      const full = { ...e, seq: seq++, suite: 'rate-limit' } as Exchange;
      exchanges.push(full);
      ledger.add(full);
      return full;
    },
  };
  const send = async (path: string, headers: Record<string, string>, connection: number): Promise<InProcessResponse> => {
    await clock.sleep(oneWay);
    const res = await server.request({ method: 'GET', path, headers, connection });
    await clock.sleep(oneWay);
    return res;
  };
  const connect: Connect = () => {
    const connection = ++connections;
    return {
      async get(path, headers) {
        const res = await send(path, headers, connection);
        return { status: res.status, header: (name) => res.headers[name], body: res.body };
      },
      close: () => {},
    };
  };
  const phases: Phases = {
    fast: (o) => fast(o, { clock, connect }),
    careful: (o) => careful(o, { clock, connect }),
  };
  return {
    exchanges,
    ledger,
    wire: {
      async look(key: TargetKey, follows, earlyOnPurpose) {
        const startedAt = clock.now();
        const res = await send('/v1/pets?limit=1', { authorization: `Bearer ${key.key}` }, ++connections);
        const e = recorder.record({
          method: 'GET',
          url: 'http://127.0.0.1/v1/pets?limit=1',
          auth: { kind: 'key', label: key.label, env: key.env, header: `Bearer $${key.env}` },
          requestHeaders: { authorization: `Bearer [REDACTED:${key.label}]` },
          status: res.status,
          responseHeaders: res.headers,
          responseBody: res.body,
          ...(follows ? { followsRetryAfter: { seq: follows.seq, until: new Date(follows.until).toISOString() } } : {}),
          ...(earlyOnPurpose !== undefined ? { earlyOnPurpose } : {}),
          startedAt: new Date(startedAt).toISOString(),
          durationMs: clock.now() - startedAt,
        });
        return { status: res.status, headers: res.headers, seq: e.seq };
      },
      async send(key: TargetKey, { method, path, body, earlyOnPurpose }) {
        const sentAt = clock.now();
        const headers = { authorization: `Bearer ${key.key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) };
        await clock.sleep(oneWay);
        const res = await server.request({ method, path: `/v1${path}`, headers, connection: ++connections, ...(body !== undefined ? { body } : {}) });
        await clock.sleep(oneWay);
        const e = recorder.record({
          method,
          url: `http://127.0.0.1/v1${path}`,
          auth: { kind: 'key', label: key.label, env: key.env, header: `Bearer $${key.env}` },
          requestHeaders: { authorization: `Bearer [REDACTED:${key.label}]` },
          ...(body !== undefined ? { requestBody: body } : {}),
          ...(earlyOnPurpose !== undefined ? { earlyOnPurpose } : {}),
          status: res.status,
          responseHeaders: res.headers,
          responseBody: res.body,
          startedAt: new Date(sentAt).toISOString(),
          durationMs: clock.now() - sentAt,
        });
        return { status: res.status, headers: res.headers, seq: e.seq, sentAt, t: clock.now() };
      },
      phases,
      recorder,
      budget: new Budget(options.budget ?? 1_000_000),
    },
  };
}
