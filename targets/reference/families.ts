// The reference server's legal variations as families of transformations (lib/checks/server-families.ts
// names the families and the clauses that leave them free), and legal servers composed of them.
//
// A family is a set of axes; an axis is a set of alternatives that exclude one another (a server
// frames its bodies by chunks or by the connection's close, not both), so that a member of a
// family (one alternative on each of some of its axes) and members of several families compose by
// construction. Every variation of the catalogue is on exactly one axis.
//
// Pure: the generator is a function of its seed (seeded.ts); the runs live in test/support/legal-combos.ts.
import { CHECKS } from '../../lib/checks/registry.ts';
import { NOT_COMPOSED } from '../../lib/checks/define.ts';
import { SERVER_FAMILIES, SERVER_FAMILY_IDS, type ServerFamilyId } from '../../lib/checks/server-families.ts';
import { seededFraction } from './seeded.ts';
import { type VariationId, WIRE_VARIATIONS } from './variations.ts';

export interface Axis {
  /** What the alternatives are choices of, e.g. "framing". */
  readonly name: string;
  readonly alternatives: readonly VariationId[];
}

export const FAMILY_AXES: Readonly<Record<ServerFamilyId, readonly Axis[]>> = {
  representation: [
    { name: 'members of Pet the interface does not name', alternatives: ['pet-extra-members'] },
    { name: 'members of Error the interface does not name', alternatives: ['error-extra-members'] },
    { name: 'member order, whitespace, escapes', alternatives: ['json-reformatted'] },
    { name: 'ids', alternatives: ['ids-beyond-2^53', 'ids-sharded', 'ids-negative', 'ids-near-2^63'] },
    { name: 'charset', alternatives: ['charset-utf8'] },
    { name: 'status stored when none is given', alternatives: ['status-default-available', 'status-null'] },
    { name: 'order of Pets', alternatives: ['shuffled-order'] },
  ],
  http: [
    { name: 'framing', alternatives: ['chunked-bodies', 'close-delimited'] },
    { name: 'content coding', alternatives: ['gzip-always', 'deflate-always', 'br-always'] },
    { name: 'interim answers', alternatives: ['early-hints-103', 'interim-100-102'] },
    { name: 'connections', alternatives: ['keep-alive-1s'] },
    { name: 'slow heads and bodies', alternatives: ['slow-body'] },
    { name: 'response times', alternatives: ['slow-responses', 'far-away', 'slow-day'] },
  ],
  time: [
    { name: 'order of answers across connections', alternatives: ['answers-reordered'] },
    { name: 'reads after writes', alternatives: ['read-lag'] },
    { name: 'instances', alternatives: ['several-instances', 'instances-clock-skew'] },
    { name: 'clock', alternatives: ['clock-ahead', 'clock-behind'] },
  ],
  'rate-limits': [
    { name: 'algorithm', alternatives: ['sliding-window', 'sliding-log', 'window-per-key', 'retry-after-fractional-wait'] },
    { name: 'window of the headers', alternatives: ['headers-day-window', 'headers-minute-window'] },
    { name: 'Retry-After form', alternatives: ['retry-after-http-date'] },
    { name: 'Reset rounding', alternatives: ['reset-jitter'] },
    { name: 'ban', alternatives: ['ban-after-ignoring-429', 'ban-after-3-early', 'first-key-banned'] },
    { name: 'refused requests counted', alternatives: ['rejected-count-against-quota'] },
    { name: 'body of a 429', alternatives: ['429-empty-body'] },
  ],
  routing: [
    { name: 'what no route matches', alternatives: ['routing-before-auth'] },
    { name: 'methods no operation has', alternatives: ['unknown-method-501'] },
    { name: 'case of the path', alternatives: ['case-insensitive-routing'] },
    { name: 'trailing slash and dot segments', alternatives: ['trailing-slash-served', 'trailing-slash-redirect'] },
    { name: 'empty segments', alternatives: ['merged-slashes'] },
    { name: 'path parameters', alternatives: ['path-parameters-ignored'] },
    { name: 'percent-encoding', alternatives: ['percent-decoded-path'] },
    { name: 'path firewall', alternatives: ['strict-path-400'] },
    { name: 'query schema', alternatives: ['strict-query'] },
    { name: 'Accept', alternatives: ['accept-406'] },
    { name: 'HEAD', alternatives: ['head-405'] },
    { name: 'OPTIONS', alternatives: ['options-cors'] },
  ],
  validation: [
    { name: 'order of work', alternatives: ['json-parser-first'] },
    { name: 'media type', alternatives: ['media-type-415', 'any-body-as-json'] },
    { name: 'limit out of range', alternatives: ['limit-clamp'] },
    { name: 'non-numeric petId', alternatives: ['non-numeric-id-404'] },
    { name: 'extra NewPet fields', alternatives: ['extra-fields-rejected'] },
    { name: 'duplicate members', alternatives: ['duplicate-member-last-wins'] },
  ],
  headers: [
    { name: 'cookies', alternatives: ['affinity-cookie'] },
    { name: 'Cache-Control', alternatives: ['cache-control-keyed'] },
    { name: 'Location', alternatives: ['location-absolute'] },
    { name: 'Deprecation', alternatives: ['deprecation-date-form'] },
    { name: 'Sunset', alternatives: ['sunset-end-of-day'] },
  ],
  'lenient-input': [
    { name: 'values', alternatives: ['lenient-values'] },
    { name: 'credential', alternatives: ['lenient-bearer'] },
    { name: 'unknown filter', alternatives: ['unknown-filter-ignored'] },
  ],
};

/**
 * Variations that only hold answers (tens to hundreds of milliseconds each): on the virtual clock
 * they cost nothing, over sockets a run of the functional suites would wait minutes. They meet the
 * rate-limit checks on the clock only.
 */
export const ONLY_ON_THE_CLOCK: readonly VariationId[] = ['slow-responses', 'far-away', 'slow-day'];

/** One family's share of a composed server: one alternative on each of some of its axes. */
export interface Member {
  readonly family: ServerFamilyId;
  readonly variations: readonly VariationId[];
}

/** A legal server composed of members of several families: the nth of its seed. */
export interface Combination {
  readonly seed: number;
  readonly index: number;
  readonly members: readonly Member[];
}

export const variationsOf = (c: { members: readonly Member[] }): VariationId[] => c.members.flatMap((m) => m.variations);

/** What the server on sockets runs with (what changes the wire too, nothing that only holds answers). */
export const onSockets = (variations: readonly VariationId[]): VariationId[] => variations.filter((v) => !ONLY_ON_THE_CLOCK.includes(v));

/** What the server on the virtual clock runs with (the in-process server has no wire). */
export const onTheClock = (variations: readonly VariationId[]): VariationId[] => variations.filter((v) => !WIRE_VARIATIONS.includes(v));

/** The family and axis a variation is on. */
export function axisOf(variation: VariationId): { family: ServerFamilyId; axis: Axis } | undefined {
  for (const family of SERVER_FAMILY_IDS) {
    const axis = FAMILY_AXES[family].find((a) => a.alternatives.includes(variation));
    if (axis) return { family, axis };
  }
  return undefined;
}

export interface ComposeOptions {
  seed: number;
  count: number;
  /** Families each server takes a member of: at least this many (default 3, at most all). */
  minFamilies?: number;
}

/**
 * `count` legal servers, each a member of k families (k from minFamilies to every family, each
 * family as likely), each member one alternative on each of its axes taken (an axis taken with
 * probability one half, at least one). The same seed gives the same servers.
 */
export function composeServers({ seed, count, minFamilies = 3 }: ComposeOptions): Combination[] {
  const families = SERVER_FAMILY_IDS;
  const least = Math.min(Math.max(1, minFamilies), families.length);
  let n = 0;
  const random = () => seededFraction(seed | 0, n++);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  return Array.from({ length: count }, (_, index) => {
    const k = least + Math.floor(random() * (families.length - least + 1));
    const chosen = shuffle(families, random).slice(0, k).sort((a, b) => families.indexOf(a) - families.indexOf(b));
    const members = chosen.map((family): Member => {
      const axes = FAMILY_AXES[family];
      let taken = axes.filter(() => random() < 0.5);
      if (taken.length === 0) taken = [pick(axes)];
      return { family, variations: taken.map((axis) => pick(axis.alternatives)) };
    });
    return { seed, index, members };
  });
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A combination in one line: "representation{pet-extra-members,charset-utf8} http{gzip-always}". */
export function describeCombination(c: { members: readonly Member[] }): string {
  return c.members.map((m) => `${m.family}{${m.variations.join(',')}}`).join(' ');
}

/** The command that runs this server again, alone. */
export function reproduceCommand(c: { members: readonly Member[] }): string {
  return `npm run verify:legal -- --variations ${variationsOf(c).join(',')}`;
}

/**
 * A server of exactly these variations, as a combination (each grouped under its family), for
 * --variations. Unknown names, two alternatives of one axis, and a variation on no axis are refused.
 */
export function combinationOf(variations: readonly string[], seed = 0): Combination | { error: string } {
  const members = new Map<ServerFamilyId, VariationId[]>();
  const axesTaken = new Map<string, VariationId>();
  for (const name of variations) {
    const at = axisOf(name as VariationId);
    if (!at) return { error: `--variations: "${name}" is not a legal variation of the reference server on any family's axis` };
    const key = `${at.family}/${at.axis.name}`;
    const other = axesTaken.get(key);
    if (other !== undefined && other !== name) return { error: `--variations: "${other}" and "${name}" are alternatives of one axis (${at.family}: ${at.axis.name}); a server takes one` };
    axesTaken.set(key, name as VariationId);
    members.set(at.family, [...new Set([...(members.get(at.family) ?? []), name as VariationId])]);
  }
  return { seed, index: 0, members: SERVER_FAMILY_IDS.filter((f) => members.has(f)).map((family) => ({ family, variations: members.get(family)! })) };
}

/** Where docs/checks.md holds familiesMarkdown()'s text (npm run docs:families writes it). */
export const FAMILIES_DOC_MARKERS = ['<!-- families: written by npm run docs:families -->', '<!-- end of families -->'] as const;

/**
 * docs/checks.md's account of the families: each with the clause that leaves it free and its
 * members by axis, then every must with the families it was judged against.
 */
export function familiesMarkdown(): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const lines = ['| Family | What a conforming server may do otherwise | Left free by | Members, by axis |', '|---|---|---|---|'];
  for (const f of SERVER_FAMILIES) {
    const axes = FAMILY_AXES[f.id].map((a) => `${a.name}: ${a.alternatives.map((v) => `\`${v}\``).join(' or ')}`).join('; ');
    lines.push(`| \`${f.id}\` | ${cell(f.title)} | ${cell(f.clause)} | ${cell(axes)} |`);
  }
  lines.push('', 'The `must`s and the families each was judged against (its definition\'s `judgedAgainst`):', '', '| Check | Judged against |', '|---|---|');
  const musts = CHECKS.filter((c) => c.severity === 'must');
  const groups = new Map<string, string[]>();
  for (const c of musts) {
    const key = (c.judgedAgainst ?? []).length > 0 ? c.judgedAgainst!.join(', ') : (NOT_COMPOSED[c.suite] ?? 'none');
    groups.set(key, [...(groups.get(key) ?? []), c.id]);
  }
  for (const [families, ids] of groups) lines.push(`| ${ids.map((id) => `\`${id}\``).join(', ')} | ${cell(families)} |`);
  return lines.join('\n');
}
