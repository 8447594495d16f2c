import path from 'node:path';
import type { Target } from '../config/schema.ts';
import type { ClientOptions } from './client.ts';

/** The client settings a target file gives: address, keys and transport. */
export function targetClientOptions(target: Target): Pick<ClientOptions, 'baseUrl' | 'keys' | 'windows' | 'timeoutMs' | 'connectTimeoutMs' | 'insecure' | 'headers' | 'proxy' | 'caFile'> {
  return {
    baseUrl: target.baseUrl,
    keys: target.keys,
    windows: target.windows,
    timeoutMs: target.http.timeoutMs,
    ...(target.http.connectTimeoutMs ? { connectTimeoutMs: target.http.connectTimeoutMs } : {}),
    ...(target.http.insecure ? { insecure: true } : {}),
    headers: target.http.headers,
    ...(target.http.proxy ? { proxy: target.http.proxy } : {}),
    ...(target.http.caFile ? { caFile: path.resolve(path.dirname(target.source), target.http.caFile) } : {}),
  };
}
