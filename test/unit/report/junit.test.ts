import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../../lib/report/junit.ts';
import type { Report } from '../../../lib/result/model.ts';
import { check, evidence, mixedChecks, report } from './fixture.ts';

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string): string {
  if (raw.includes('<')) throw new Error(`raw < in ${JSON.stringify(raw)}`);
  return raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare & in ${JSON.stringify(raw)}`);
    if (ref in PREDEFINED) return PREDEFINED[ref]!;
    const m = /^#(\d+)$|^#x([0-9a-fA-F]+)$/.exec(ref);
    if (!m) throw new Error(`unknown reference ${whole}`);
    return String.fromCodePoint(m[1] ? Number(m[1]) : parseInt(m[2]!, 16));
  });
}

/** A small, strict well-formedness check for what the renderer emits (no comments, PIs, CDATA or DTD). */
function parseXml(xml: string): XmlElement {
  if (ILLEGAL.test(xml)) throw new Error('character illegal in XML 1.0');
  const prolog = '<?xml version="1.0" encoding="UTF-8"?>\n';
  if (!xml.startsWith(prolog)) throw new Error('missing XML declaration');
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/gy;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  token.lastIndex = prolog.length;
  for (let m = token.exec(xml); m; m = token.exec(xml)) {
    const [, closing, name, attrText, selfClosing, text, stray] = m;
    if (stray) throw new Error(`malformed markup at ${m.index}: ${xml.slice(m.index, m.index + 40)}`);
    const top = stack.at(-1);
    if (text !== undefined) {
      if (!top) {
        if (text.trim()) throw new Error('text outside the root element');
        continue;
      }
      if (text.includes(']]>')) throw new Error(']]> in text');
      top.text += decode(text);
    } else if (closing) {
      if (top?.name !== name) throw new Error(`</${name}> closes <${top?.name}>`);
      stack.pop();
    } else {
      const attrs: Record<string, string> = {};
      for (const a of attrText!.matchAll(/([\w.-]+)="([^"]*)"/g)) {
        if (a[1]! in attrs) throw new Error(`duplicate attribute ${a[1]}`);
        attrs[a[1]!] = decode(a[2]!);
      }
      const element: XmlElement = { name: name!, attrs, children: [], text: '' };
      if (top) top.children.push(element);
      else if (root) throw new Error('second root element');
      else root = element;
      if (!selfClosing) stack.push(element);
    }
  }
  if (token.lastIndex !== 0 && token.lastIndex !== xml.length) throw new Error('trailing garbage');
  if (stack.length > 0 || !root) throw new Error(`unclosed <${stack.at(-1)?.name}>`);
  return root;
}

const kids = (el: XmlElement, name: string) => el.children.filter((c) => c.name === name);
const num = (el: XmlElement, attr: string) => Number(el.attrs[attr]);

function expectConsistentCounts(root: XmlElement): void {
  const total = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  for (const suite of kids(root, 'testsuite')) {
    const cases = kids(suite, 'testcase');
    const having = (name: string) => cases.filter((c) => kids(c, name).length > 0).length;
    expect(num(suite, 'tests')).toBe(cases.length);
    expect(num(suite, 'failures')).toBe(having('failure'));
    expect(num(suite, 'errors')).toBe(having('error'));
    expect(num(suite, 'skipped')).toBe(having('skipped'));
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += num(suite, key);
  }
  for (const key of Object.keys(total) as (keyof typeof total)[]) expect(num(root, key)).toBe(total[key]);
}

function render(r: Report): XmlElement {
  const root = parseXml(renderJunit(r));
  expect(root.name).toBe('testsuites');
  expectConsistentCounts(root);
  return root;
}

describe('renderJunit', () => {
  it('counts match the report summary; info checks never fail', () => {
    const r = report(mixedChecks());
    const root = render(r);
    const { must, should, info } = r.summary.bySeverity;
    expect(num(root, 'tests')).toBe(r.summary.checks);
    expect(num(root, 'failures')).toBe(must.fail + should.fail);
    expect(num(root, 'errors')).toBe(must.error + should.error);
    expect(num(root, 'skipped')).toBe(r.summary.byOutcome.skip + info.error);
    expect(root.attrs.time).toBe('3.500');
    expect(root.attrs.name).toBe('Animal Store conformance: local');
  });

  it('has one testsuite per clause and one testcase per check', () => {
    const root = render(report(mixedChecks()));
    const suites = kids(root, 'testsuite');
    expect(suites.map((s) => s.attrs.name)).toEqual(['Authentication', 'Errors', 'Limits', 'States and transitions', 'Endpoints']);
    const limits = suites[2]!;
    expect(limits.attrs.time).toBe('0.075');
    const cases = kids(limits, 'testcase');
    expect(cases.map((c) => c.attrs.name)).toEqual(['limits.headers [POST /pets]', 'limits.retry-after', 'info.limit-zero']);
    expect(cases.every((c) => c.attrs.classname === 'Limits' && c.attrs.time === '0.025')).toBe(true);
    const [error, skipped, info] = cases;
    expect(kids(error!, 'error')[0]!.attrs).toEqual({ message: 'timed out', type: 'must' });
    expect(kids(skipped!, 'skipped')[0]!.attrs.message).toBe('needs --allow-load');
    expect(info!.children.map((c) => c.name)).toEqual(['system-out']);
  });

  it('puts message, expected/actual and reproduction commands in a failure', () => {
    const root = render(report(mixedChecks()));
    const [auth, errors] = kids(root, 'testsuite');
    const failure = kids(kids(auth!, 'testcase')[1]!, 'failure')[0]!;
    expect(failure.attrs).toEqual({ message: 'auth.invalid-key went wrong', type: 'must' });
    expect(failure.text).toContain('Expected: status 401\nActual: status 200');
    expect(failure.text).toContain('#1 GET http://127.0.0.1:4010/v1/pets -> 200');
    expect(failure.text).toContain('Reproduce:\ncurl -sS -i "http://127.0.0.1:4010/v1/pets" -H "Authorization: Bearer $ANIMAL_STORE_KEY"');
    expect(kids(kids(errors!, 'testcase')[0]!, 'failure')[0]!.attrs.type).toBe('should');
  });

  it('lists every other kind of failure of a property check, with its counterexample and commands', () => {
    const failures = [
      { kind: 'name missing', message: 'name missing: got 201 (accepted), not 400', counterexample: '{"categoryId": 1}', reproduce: ['curl -X POST one'] },
      { kind: 'categoryId has a fraction', message: 'categoryId has a fraction: got 201', counterexample: '{"categoryId": 1.5}', reproduce: [] },
    ];
    const prop = check({ id: 'create-pet.invalid-rejected', outcome: 'fail', evidence: evidence({ counterexample: '{"name": 1}', failures }) });
    const failure = kids(kids(kids(render(report([prop])), 'testsuite')[0]!, 'testcase')[0]!, 'failure')[0]!;
    expect(failure.text).toContain('Also failing (name missing): name missing: got 201 (accepted), not 400\nCounterexample: {"categoryId": 1}\nReproduce:\ncurl -X POST one');
    expect(failure.text).toContain('Also failing (categoryId has a fraction): categoryId has a fraction: got 201\nCounterexample: {"categoryId": 1.5}');
  });

  it('strips illegal characters and escapes ]]>, quotes and markup', () => {
    const nasty = 'a\u0000b\u0008c\u000Bd\u000Ce\u001Ff\uD800g\uDC00h 🐕 ]]> "q" \'s\' <x>&amp;\ttab\r\nline';
    const clean = 'abcdefgh 🐕 ]]> "q" \'s\' <x>&amp;\ttab\r\nline';
    const r = report(
      [
        check({
          id: `id${nasty}`,
          subject: nasty,
          clause: nasty,
          outcome: 'fail',
          message: nasty,
          evidence: evidence({ expected: nasty, reproduce: [nasty] }),
        }),
        check({ id: 'skipped', clause: nasty, outcome: 'skip', message: nasty }),
      ],
      { target: { name: nasty, baseUrl: nasty, keys: [] } },
    );
    const xml = renderJunit(r);
    expect(xml).not.toContain(']]>');
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    const root = render(r);
    expect(root.attrs.name).toBe(`Animal Store conformance: ${clean}`);
    const suite = kids(root, 'testsuite')[0]!;
    expect(suite.attrs.name).toBe(clean);
    const [failing, skipped] = kids(suite, 'testcase');
    expect(failing!.attrs.name).toBe(`id${clean} [${clean}]`);
    expect(kids(failing!, 'failure')[0]!.attrs.message).toBe(clean);
    expect(kids(failing!, 'failure')[0]!.text).toContain(`Expected: ${clean}`);
    expect(kids(skipped!, 'skipped')[0]!.attrs.message).toBe(clean);
    expect(xml).toContain('&quot;q&quot;');
  });

  it('an expected failure (--expected-failures) is skipped with its reason, its evidence kept, and counts as no failure', () => {
    const expected = check({ id: 'auth.invalid-key', subject: 'GET /pets', outcome: 'fail', expectedFailure: { reason: 'TICKET-7 <fix in 2.4>' } });
    const root = render(report([check({ id: 'auth.missing-key' }), expected]));
    expect(root.attrs).toMatchObject({ tests: '2', failures: '0', errors: '0', skipped: '1' });
    const testcase = kids(kids(root, 'testsuite')[0]!, 'testcase')[1]!;
    expect(testcase.children.map((c) => c.name)).toEqual(['skipped']);
    const skipped = kids(testcase, 'skipped')[0]!;
    expect(skipped.attrs).toEqual({ message: 'expected failure: TICKET-7 <fix in 2.4>' });
    expect(skipped.text).toContain('auth.invalid-key went wrong');
    expect(skipped.text).toContain('Expected: status 401\nActual: status 200');
  });

  it('renders an empty run', () => {
    const root = render(report([]));
    expect(root.attrs).toMatchObject({ tests: '0', failures: '0', errors: '0', skipped: '0' });
    expect(root.children).toEqual([]);
  });

  it('the well-formedness check rejects what it should', () => {
    const prolog = '<?xml version="1.0" encoding="UTF-8"?>\n';
    for (const bad of ['<a><b></a></b>', '<a x="1" x="2"/>', '<a>&bogus;</a>', '<a>x & y</a>', '<a>]]></a>', '<a>\u0001</a>', '<a>', '<a/><b/>']) {
      expect(() => parseXml(prolog + bad), bad).toThrow();
    }
    expect(parseXml(`${prolog}<a k="&lt;&#10;"><b/>t&amp;</a>\n`)).toMatchObject({ attrs: { k: '<\n' }, text: 't&' });
  });
});
