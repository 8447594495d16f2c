// A reproduction command per exchange: curl, with any configured key read from its variable (a near
// miss of a key is rebuilt from it by the shell text its AuthUsed header holds, inside double quotes).
import type { Exchange } from '../result/model.ts';

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const SKIPPED = new Set(['authorization', 'content-length', 'host', 'connection', 'user-agent']);

export function curlCommand(exchange: Exchange): string {
  const { auth } = exchange;
  const url = auth.kind === 'key-in-query' ? keyFromVariable(exchange.url, auth.label, auth.env) : shellQuote(exchange.url);
  const parts = ['curl', '-sS', '-i', '-X', exchange.method, url];
  if (auth.kind === 'key') parts.push('-H', `"Authorization: ${auth.header}"`);
  else if (auth.kind === 'literal' && auth.where === 'header') parts.push('-H', shellQuote(`Authorization: ${auth.header}`));
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (!SKIPPED.has(name.toLowerCase())) parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (exchange.requestBody !== undefined) parts.push('--data-binary', shellQuote(exchange.requestBody));
  return parts.join(' ');
}

/** The recorded URL carries "[REDACTED:label]" where the key was: put "$VAR" there, in double quotes. */
function keyFromVariable(url: string, label: string, env: string): string {
  const escaped = url.replace(/[\\"$`]/g, (c) => `\\${c}`);
  return `"${escaped.split(`[REDACTED:${label}]`).join(`$\{${env}\}`)}"`;
}
