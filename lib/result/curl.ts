// A reproduction command per exchange: curl, with any configured key read from its variable (a near
// miss of a key is rebuilt from it by the shell text its AuthUsed header holds, inside double quotes).
import { KEY_ENCODINGS } from '../generators/key-carriers.ts';
import type { Exchange } from './exchange.ts';

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const SKIPPED = new Set(['authorization', 'content-length', 'host', 'connection', 'user-agent']);

export function curlCommand(exchange: Exchange): string {
  const { auth } = exchange;
  // A key sent by other carriers (auth.other-carrier) is in the URL, a header or the body, recorded redacted: each word that holds it is rebuilt from the variable.
  const word = (text: string) => (auth.kind === 'key-carrier' && text.includes(`[REDACTED:${auth.label}`) ? keyFromVariable(text, auth.label, auth.env) : shellQuote(text));
  const url = auth.kind === 'key-in-query' ? keyFromVariable(exchange.url, auth.label, auth.env) : word(exchange.url);
  const parts = ['curl', '-sS', '-i', '-X', exchange.method, url];
  if (auth.kind === 'key') parts.push('-H', `"Authorization: ${auth.header}"`);
  else if (auth.kind === 'literal' && auth.where === 'header') parts.push('-H', shellQuote(`Authorization: ${auth.header}`));
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    const carried = auth.kind === 'key-carrier' && name.toLowerCase() === 'authorization';
    if (carried || !SKIPPED.has(name.toLowerCase())) parts.push('-H', word(`${name}: ${value}`));
  }
  // A body recorded cut (an oversized one sent on purpose) cannot be given inline: the command reads it from a file.
  if (exchange.requestBodyBytes !== undefined) parts.push('--data-binary', '@request-body', `# request-body: the ${exchange.requestBodyBytes}-byte body sent, of which the report keeps the start`);
  else if (exchange.requestBody !== undefined) parts.push('--data-binary', word(exchange.requestBody));
  return parts.join(' ');
}

/**
 * The recorded text carries "[REDACTED:label]" where the key was, and "[REDACTED:label base64(key:)]"
 * where an encoding of it was (KEY_ENCODINGS): put "${VAR}", or the shell text that encodes it,
 * there, in double quotes.
 */
function keyFromVariable(text: string, label: string, env: string): string {
  let escaped = text.replace(/[\\"$`]/g, (c) => `\\${c}`);
  for (const { name, shell } of KEY_ENCODINGS) escaped = escaped.split(`[REDACTED:${label} ${name}]`).join(shell(env));
  return `"${escaped.split(`[REDACTED:${label}]`).join(`$\{${env}\}`)}"`;
}
