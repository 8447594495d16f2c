// Lossless JSON: ids and categoryIds are int64 and may exceed 2^53, which JSON.parse rounds.
import { isInteger, isSafeNumber, parse, stringify } from 'lossless-json';

/** Integer literals that fit a double exactly stay numbers; larger ones become bigint. */
function parseNumber(literal: string): number | bigint {
  if (isInteger(literal)) return isSafeNumber(literal) ? Number(literal) : BigInt(literal);
  return Number(literal);
}

/**
 * Parses JSON text without losing integer digits. Throws SyntaxError on malformed text and on
 * duplicate keys with different values (a body that means two things is not valid for us).
 */
export function parseJson(text: string): unknown {
  return parse(text, null, parseNumber);
}

/** Like parseJson, but returns a tagged result instead of throwing. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: parseJson(text) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Writes JSON with bigint values as plain integer literals (every digit kept). */
export function stringifyJson(value: unknown, space?: number): string {
  const text = stringify(value, null, space);
  if (text === undefined) throw new TypeError('value cannot be written as JSON');
  return text;
}
