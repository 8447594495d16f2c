// lib/runner/progress.ts and lib/runner/collector.ts: the console's progress and the run's record,
// both built from the suites' events alone, so the counts shown are the counts reported.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../lib/result/model.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { countRequests } from '../../../lib/result/build.ts';
import { PLAIN } from '../../../lib/report/console.ts';
import { RunCollector } from '../../../lib/runner/collector.ts';
import { SuiteProgress } from '../../../lib/runner/progress.ts';
import type { HarnessEvent } from '../../../lib/suite-kit/events.ts';

let seq = 0;
const exchange = (suite: string): HarnessEvent => ({
  kind: 'exchange',
  exchange: { seq: seq++, suite, method: 'GET', url: 'http://127.0.0.1:1/v1/pets', auth: { kind: 'none' }, requestHeaders: {}, status: 401, responseHeaders: {}, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1 },
});
const check = (suite: string, outcome: CheckResult['outcome'], id = `${suite}.x`): HarnessEvent => ({
  kind: 'check',
  check: { id, clause: 'c', title: 't', severity: 'must', outcome, message: `${id} said ${outcome}\nmore`, suite, durationMs: 0, evidence: null },
});

const dir = mkdtempSync(path.join(tmpdir(), 'animal-store-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SuiteProgress', () => {
  it('counts each suite\'s requests from its exchanges, even those that arrive before the suite is announced', () => {
    const lines: string[] = [];
    let now = 1_000;
    const progress = new SuiteProgress((l) => lines.push(l), PLAIN, () => now);
    progress.event(exchange('probe'));
    progress.start('auth');
    for (let i = 0; i < 3; i++) progress.event(exchange('auth'));
    progress.event(check('auth', 'pass'));
    progress.event(check('auth', 'skip'));
    now = 3_500;
    progress.start('rate-limit');
    progress.event(exchange('rate-limit'));
    progress.event({ kind: 'progress', suite: 'rate-limit', line: 'waiting 4.0 s for free#1' });
    progress.event(check('rate-limit', 'fail'));
    progress.end();
    progress.end();
    expect(lines).toEqual([
      '▶ auth',
      '  auth: 2 checks (1 pass, 1 skip), 3 requests, 2.5 s',
      '▶ rate-limit',
      '  waiting 4.0 s for free#1',
      '  ✗ rate-limit.x said fail (rate-limit.x)',
      '  rate-limit: 1 checks (1 fail), 1 requests, 0.0 s',
    ]);
  });
});

describe('RunCollector', () => {
  it('keeps every check and timeline and the status and suite of every request, logs each exchange as a JSON line until closed, and passes every event on in order', () => {
    const log = path.join(dir, 'exchanges.jsonl');
    const seen: HarnessEvent[] = [];
    const collector = new RunCollector(log, (e) => seen.push(e));
    const events: HarnessEvent[] = [
      exchange('probe'),
      exchange('auth'),
      check('auth', 'pass'),
      { kind: 'progress', suite: 'auth', line: 'hello' },
      { kind: 'rate-limit', key: { label: 'free#1', plan: 'free', quota: { perMinute: 60, perDay: 1000 }, windows: { minute: 60, day: 86400 }, behaviour: 'not observed', timeline: [] } },
      exchange('auth'),
    ];
    for (const e of events) collector.add(e);
    collector.close();
    const late = exchange('auth');
    collector.add(late);
    expect(seen).toEqual([...events, late]);
    expect(collector.requests.map((e) => e.suite)).toEqual(['probe', 'auth', 'auth', 'auth']);
    expect(collector.checks.map((c) => c.id)).toEqual(['auth.x']);
    expect(collector.rateLimits.map((k) => k.label)).toEqual(['free#1']);
    // What arrived after the log was closed is no longer written, and still counted and returned.
    const logged = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Exchange);
    const sent = events.flatMap((e) => (e.kind === 'exchange' ? [e.exchange] : []));
    expect(logged).toEqual(sent);
    expect(collector.exchanges()).toEqual([...sent, (late as Extract<HarnessEvent, { kind: 'exchange' }>).exchange]);
    expect(countRequests(collector.requests).bySuite).toEqual({ probe: 1, auth: 3 });
  });

  it('gives back each exchange as it came, read from the log: the run-level checks judge the same exchanges', () => {
    const log = path.join(dir, 'exchanges-roundtrip.jsonl');
    const collector = new RunCollector(log);
    const odd: Exchange = {
      ...(exchange('auth') as Extract<HarnessEvent, { kind: 'exchange' }>).exchange,
      status: 200,
      responseHeaders: { 'content-type': 'application/json; charset=utf-8', 'x-ratelimit-remaining': '0' },
      responseBody: '{"name":"caf\u00e9 \ud83d\udc08","note":"line\nbreak \"quoted\""}',
    };
    const noResponse: Exchange = { ...(exchange('load') as Extract<HarnessEvent, { kind: 'exchange' }>).exchange, status: undefined };
    collector.add({ kind: 'exchange', exchange: odd });
    collector.add({ kind: 'exchange', exchange: noResponse });
    collector.close();
    expect(collector.exchanges()).toEqual([odd, noResponse]);
    expect(countRequests(collector.requests).byStatus).toEqual({ '200': 1, 'transport-error': 1 });
  });
});
