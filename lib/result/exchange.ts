// The record of one request and its answer, as the run keeps it (report.json `exchanges`,
// exchanges.jsonl), and the configured key a request carried, read in one place: the run's ledger,
// the client and the politeness count agree on which requests are a key's. A leaf of lib/result.
import { z } from 'zod';
import { KEEPS } from '../generators/transformations.ts';

/** How a request was authenticated, without the secret: what a reader needs to reproduce it. */
export const AuthUsed = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({
    kind: z.literal('key'),
    /** e.g. "free#1": the plan and position among keys of that plan. */
    label: z.string(),
    /** Environment variable a reproduction reads the key from. */
    env: z.string(),
    /**
     * The header as sent, with the key replaced by the variable, e.g. "Bearer $FREE_KEY"; for a near
     * miss of the key, shell text (inside double quotes) that rebuilds it, e.g. "Bearer ${FREE_KEY%?}".
     */
    header: z.string(),
  }),
  /** A configured key sent in the query string (`param`), not the header. */
  z.object({ kind: z.literal('key-in-query'), label: z.string(), env: z.string(), param: z.string() }),
  /**
   * A configured key sent by other carriers than `Authorization: Bearer` (another scheme, another
   * header, a query parameter, a cookie, a body field), named in `carriers`, e.g. "X-API-Key header",
   * "Authorization: Basic base64(<key>:)". The URL, headers and body are recorded redacted; a
   * reproduction rebuilds each value from `env`.
   */
  z.object({ kind: z.literal('key-carrier'), label: z.string(), env: z.string(), carriers: z.array(z.string()) }),
  /** A credential the harness made up (unknown key, other scheme): not a secret, shown as sent. */
  z.object({ kind: z.literal('literal'), header: z.string(), where: z.enum(['header', 'query']) }),
]);
export type AuthUsed = z.infer<typeof AuthUsed>;

export const Exchange = z.object({
  seq: z.number().int().describe('Order of the request within the run'),
  suite: z.string(),
  method: z.string(),
  url: z.string(),
  auth: AuthUsed,
  requestHeaders: z.record(z.string(), z.string()).describe('As sent; Authorization redacted'),
  requestBody: z.string().optional(),
  requestBodyBytes: z.number().int().optional().describe('Present when requestBody holds only the start of a longer body (an oversized one sent on purpose): the whole body\'s length in bytes'),
  status: z.number().int().optional().describe('Absent when no response arrived'),
  interim: z.array(z.number().int()).optional().describe('The 1xx interim answers (100, 102, 103...) that came before the final one, in order; the exchange is the final answer alone'),
  responseHeaders: z.record(z.string(), z.string()),
  responseBody: z.string().optional(),
  responseBodyTruncated: z.boolean().optional(),
  transportError: z.string().optional().describe('Code of the failure when no complete response arrived'),
  inFlightAtStop: z.boolean().optional().describe('A load request already on the wire when the load stopped at its first 429'),
  earlyOnPurpose: z.string().optional().describe("Sent before the key's last Retry-After had passed, on purpose: why (the one request of another operation right after a 429 that rate-limit.one-quota sends; the ban probe's requests with a disposable key)"),
  followsRetryAfter: z
    .object({ seq: z.number().int(), until: z.string().describe('ISO 8601: the moment that 429 named') })
    .optional()
    .describe("Sent after waiting out the Retry-After of the 429 answered to request `seq`: that 429's evidence (rate-limit.retry-after-obeyed)"),
  refusedWithinQuota: z
    .object({
      sent: z.number().int().describe('Requests the harness sent with the key within one minute window\'s length before the 429, this one included'),
      quota: z.number().int().describe("The plan's per-minute quota"),
      seconds: z.number().int().describe("The minute window's length"),
    })
    .optional()
    .describe("A 429 of the minute's quota that no limiter of the plan gives: the key had been sent no more than its quota within a window's length (rate-limit.quota)"),
  spelling: z
    .object({
      family: z.string().describe('The family of transformations that made it (relations suite): path, method, credential, query, body, negotiation, order, added-headers'),
      name: z.string().describe("What was done to the canonical request, e.g. \"segment 'pets' as 'Pets'\""),
      keeps: z.enum(KEEPS).describe('What the interface keeps of it: the same request; a request it does not describe, which may be read as the same; an answer it leaves open'),
    })
    .optional()
    .describe('A respelling of a canonical request, sent by the relations suite'),
  startedAt: z.string().describe('ISO 8601'),
  durationMs: z.number(),
});
export type Exchange = z.infer<typeof Exchange>;

/** When an exchange's request was sent, epoch ms (our clock). */
export const sentAtOf = (e: Pick<Exchange, 'startedAt'>): number => Date.parse(e.startedAt);
/** When its answer arrived (or the request ended without one), epoch ms (our clock). */
export const answeredAtOf = (e: Pick<Exchange, 'startedAt' | 'durationMs'>): number => sentAtOf(e) + e.durationMs;

/** The configured key a request carried in some form (its own, in the query, a near miss, other carriers), by label. */
export function keyLabelOf(auth: AuthUsed): string | undefined {
  return auth.kind === 'none' || auth.kind === 'literal' ? undefined : auth.label;
}
