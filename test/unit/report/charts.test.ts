import { describe, expect, it } from 'vitest';
import { MAX_TIMELINE_POINTS, downsample, loadChart, niceTicks, timelineChart, timelineSummary } from '../../../lib/report/charts.ts';
import { T0, rateLimitKey } from './fixture.ts';

const EVIL = '<script>alert(1)</script>"&';

/** Every attribute value in the markup. */
const attributes = (svg: string) => [...svg.matchAll(/\s([\w:-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!] as const);
const attr = (svg: string, name: string) => attributes(svg).find(([n]) => n === name)?.[1];
const polylinePoints = (svg: string) => /<polyline[^>]*\spoints="([^"]*)"/.exec(svg)?.[1]?.split(' ') ?? [];

function expectFiniteNumbers(svg: string): void {
  expect(svg).not.toMatch(/NaN|Infinity/);
  for (const [name, value] of attributes(svg)) {
    if (['x', 'y', 'x1', 'x2', 'y1', 'y2', 'cx', 'cy', 'r', 'width', 'height'].includes(name)) expect(value, name).toMatch(/^-?\d+(\.\d)?$/);
  }
}

describe('downsample', () => {
  it('keeps at most max items, the first, the last and the important ones', () => {
    const items = Array.from({ length: 10_000 }, (_, i) => i);
    const kept = downsample(items, 1500, (i) => i % 1000 === 7);
    expect(kept.length).toBeLessThanOrEqual(1500);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(9_999);
    for (let i = 7; i < 10_000; i += 1000) expect(kept).toContain(i);
    expect([...kept].sort((a, b) => a - b)).toEqual(kept);
  });

  it('thins important items too when they alone would not fit, and leaves short lists alone', () => {
    const items = Array.from({ length: 5_000 }, (_, i) => i);
    expect(downsample(items, 100, () => true).length).toBeLessThanOrEqual(100);
    expect(downsample(items.slice(0, 50), 100)).toEqual(items.slice(0, 50));
  });
});

describe('niceTicks', () => {
  it('steps by 1, 2 or 5 times a power of ten and covers the maximum', () => {
    expect(niceTicks(10, 5)).toEqual({ ticks: [0, 2, 4, 6, 8, 10], top: 10 });
    expect(niceTicks(0.174, 6).top).toBeGreaterThanOrEqual(0.174);
    expect(niceTicks(0).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(3, 5, 1).ticks).toEqual([0, 1, 2, 3]);
  });
});

describe('timelineChart', () => {
  it('summarises the key for screen readers', () => {
    const key = rateLimitKey({}, { accepted: 58, rejected: 3, stepMs: 4 });
    const summary = 'free#1: 58 accepted, 3 × 429, first 429 after 0.23 s';
    expect(timelineSummary(key)).toBe(summary);
    const svg = timelineChart(key).value;
    expect(svg).toContain(`aria-label="${summary}"`);
    expect(svg).toContain(`<title>${summary}</title>`);
    expect(svg).toContain('role="img"');
    expect(svg).toContain('<figcaption><strong>free#1</strong> · plan free · fixed window');
    expect(timelineSummary(rateLimitKey({}, { accepted: 10, rejected: 0, stepMs: 100 }))).toBe('free#1: 10 accepted, no 429 in 0.9 s');
  });

  it('draws Remaining as a polyline and marks every 429', () => {
    const svg = timelineChart(rateLimitKey({}, { accepted: 58, rejected: 3 })).value;
    // A step line: one vertex per response, plus one before each change of Remaining.
    expect(svg).toContain('<polyline class="remaining" fill="none" data-points="61"');
    const vertices = polylinePoints(svg);
    expect(vertices).toHaveLength(61 + 58);
    expect(vertices.slice(0, 3)).toEqual(['60,43.2', '69.6,43.2', '69.6,46.5']);
    const marks = /<path class="m429"[^>]*data-count="(\d+)" d="([^"]*)"/.exec(svg);
    expect(marks?.[1]).toBe('3');
    expect(marks?.[2]?.match(/M/g)).toHaveLength(3);
    expect(svg).toContain('429 response');
    expect(svg).not.toContain('class="mother"');
  });

  it('downsamples long timelines, keeping every 429, the first and the last point', () => {
    const key = rateLimitKey({}, { accepted: 20_000, rejected: 40, limit: 100_000, stepMs: 1 });
    const svg = timelineChart(key).value;
    const drawn = Number(/<polyline[^>]*data-points="(\d+)"/.exec(svg)?.[1]);
    expect(drawn).toBeLessThanOrEqual(MAX_TIMELINE_POINTS);
    expect(drawn).toBeGreaterThan(MAX_TIMELINE_POINTS / 2);
    const points = polylinePoints(svg);
    expect(points.length).toBeLessThanOrEqual(2 * drawn - 1);
    expect(attr(svg, 'data-points')).toBe('20040');
    expect(/class="m429"[^>]*data-count="(\d+)"/.exec(svg)?.[1]).toBe('40');
    expect(points[0]).toMatch(/^60,40(\.\d)?$/);
    expect(points.at(-1)).toMatch(/,234$/);
    expect(svg).toContain('Showing ');
  });

  it('draws a dashed line at each distinct reset inside the x range', () => {
    // 101 points over 10 s starting half a second into a second: the axis runs 0..10 s over x 60..700.
    const key = rateLimitKey({
      timeline: Array.from({ length: 101 }, (_, i) => ({
        t: T0 + 500 + i * 100,
        status: 200,
        limit: 50,
        remaining: 50 - (i % 50),
        reset: T0 / 1000 + (i < 50 ? 5 : i < 100 ? 10 : 20),
      })),
    });
    const svg = timelineChart(key).value;
    const resets = [...svg.matchAll(/<line class="reset" data-reset="(\d+)" x1="([^"]+)" y1="[^"]+" x2="([^"]+)"/g)];
    expect(resets.map((m) => [Number(m[1]) - T0 / 1000, m[2], m[3]])).toEqual([
      [5, '348', '348'],
      [10, '668', '668'],
    ]);
    expect(svg).toContain('stroke-dasharray="4 3"');
  });

  it('keeps numbers finite for degenerate timelines', () => {
    const cases = {
      empty: rateLimitKey({ timeline: [] }),
      single: rateLimitKey({ timeline: [{ t: T0, status: 200, limit: 60, remaining: 59, reset: T0 / 1000 + 60 }] }),
      all429: rateLimitKey({}, { accepted: 0, rejected: 5 }),
      noHeaders: rateLimitKey({ timeline: [{ t: T0, status: 200 }, { t: T0 + 50, status: 429 }, { t: T0 + 60, status: 503 }] }),
      zeroDuration: rateLimitKey({ timeline: Array.from({ length: 5 }, (_, i) => ({ t: T0, status: i < 4 ? 200 : 429, remaining: 3 - Math.min(i, 3), reset: T0 / 1000 })) }),
      zeroLimit: rateLimitKey({ timeline: [{ t: T0, status: 429, limit: 0, remaining: 0, reset: 0 }] }),
      weird: rateLimitKey({ timeline: [{ t: Number.NaN, status: 200 }, { t: T0, status: 200, remaining: -3, reset: Number.MAX_SAFE_INTEGER }] }),
    };
    for (const [name, key] of Object.entries(cases)) {
      const svg = timelineChart(key).value;
      expect(svg, name).toContain('<svg');
      expectFiniteNumbers(svg);
      expect(timelineSummary(key), name).not.toMatch(/NaN|Infinity|undefined/);
    }
    expect(timelineSummary(cases.empty)).toBe('free#1: no responses recorded');
    expect(timelineChart(cases.empty).value).toContain('No responses recorded');
    expect(timelineChart(cases.noHeaders).value).toContain('No X-RateLimit-Remaining header seen');
    expect(timelineSummary(cases.noHeaders)).toBe('free#1: 1 accepted, 1 × 429, first 429 after 0.05 s, 1 other, no X-RateLimit-Remaining header');
    expect(timelineChart(cases.noHeaders).value).toMatch(/<path class="mother" data-count="1"/);
    expect(timelineChart(cases.single).value).toContain('<circle class="remaining-dot"');
    expect(/class="m429"[^>]*data-count="(\d+)"/.exec(timelineChart(cases.all429).value)?.[1]).toBe('5');
  });

  it('escapes labels, plans and behaviours', () => {
    const svg = timelineChart(rateLimitKey({ label: EVIL, plan: EVIL, behaviour: EVIL })).value;
    expect(svg).not.toMatch(/<script/i);
    expect(svg).toContain('data-rate-limit-key="&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;"');
    expect(svg).toContain('aria-label="&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;: 58 accepted');
    expect(svg).toContain('<strong>&lt;script&gt;');
  });
});

describe('loadChart', () => {
  it('draws p50/p90/p99 and asked versus achieved rate for every key driven under load', () => {
    const keys = [rateLimitKey(), rateLimitKey({ label: 'pro#1', plan: 'pro' }), rateLimitKey({ label: 'spare', load: undefined })];
    const svg = loadChart(keys)?.value ?? '';
    expect(svg).toContain('data-chart="load" data-keys="2"');
    for (const label of ['free#1', 'pro#1']) {
      for (const metric of ['p50', 'p90', 'p99', 'asked', 'achieved']) expect(svg).toContain(`data-key="${label}" data-metric="${metric}"`);
    }
    expect(svg).not.toContain('data-key="spare"');
    expect(svg).toContain('data-metric="p99" data-value="21"');
    expect(svg).toContain('>p99 21 ms</text>');
    expect(svg).toContain('>achieved 180/s</text>');
    expect(svg).toContain('aria-label="Load per key: free#1 p50 4 ms, p90 9 ms, p99 21 ms, 180 of 200 requests/s; pro#1');
    expectFiniteNumbers(svg);
  });

  it('is null without load figures, finite with zeros, and escapes labels', () => {
    expect(loadChart([rateLimitKey({ load: undefined })])).toBeNull();
    expect(loadChart([])).toBeNull();
    const zero = { sent: 0, accepted: 0, rejected: 0, other: 0, inFlightAtStop: 0, durationMs: 0, askedRate: 0, achievedRate: 0, latency: { p50: 0, p90: 0, p99: 0, max: 0 } };
    const svg = loadChart([rateLimitKey({ label: EVIL, load: zero })])?.value ?? '';
    expectFiniteNumbers(svg);
    expect(svg).not.toMatch(/<script/i);
    expect(svg).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;</title>');
  });
});
