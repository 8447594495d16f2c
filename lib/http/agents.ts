// How a request of the transport (transport.ts) reaches its target: keep-alive agents per kind of
// target, made on first use (a pool, or one connection of its own), TLS trust, and a proxy: an
// http target's requests in absolute form to it, an https target's TLS inside a CONNECT tunnel
// through it (Proxy-Authorization from the proxy URL's user:password).
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { TransportError } from '../errors.ts';

/** How to reach a target: TLS trust, a proxy, the connect timeout. */
export interface RouteSettings {
  /** Default timeoutMs. */
  connectTimeoutMs?: number;
  /** Extra CA certificates (the contents of the target's caFile). */
  ca?: string | Buffer;
  /** Accept any TLS certificate (test hosts only). */
  insecure?: boolean;
  /** http://[user:password@]host:port of a proxy: absolute-form requests for http targets, a CONNECT tunnel for https ones. */
  proxy?: string;
}

/** The keep-alive agents of one pool (or one connection): made on first use, per kind of target and route. */
export class Agents {
  private readonly made = new Map<string, http.Agent>();
  private readonly proxy: URL | undefined;

  constructor(
    private readonly settings: RouteSettings & { timeoutMs: number },
    private readonly maxSockets = Infinity,
  ) {
    this.proxy = settings.proxy ? new URL(settings.proxy) : undefined;
  }

  /** The agent for a target URL, and the request options that reach it; `rawTarget`, path and query as sent (not normalised). */
  route(url: URL, headers: Record<string, string>, rawTarget?: string): { agent: http.Agent; options: http.RequestOptions; secure: boolean } {
    const target = url.protocol === 'https:';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (target ? 443 : 80));
    const path = rawTarget ?? url.pathname + url.search;
    const tlsOptions = { ...(this.settings.ca ? { ca: this.settings.ca } : {}), rejectUnauthorized: !this.settings.insecure };
    const proxy = this.proxy;
    if (proxy === undefined) {
      const agent = this.agent(target ? 'https' : 'http', () => (target ? new https.Agent({ keepAlive: true, maxSockets: this.maxSockets, ...tlsOptions }) : new http.Agent({ keepAlive: true, maxSockets: this.maxSockets })));
      return { agent, options: { host, port, path, headers, ...(target && !isIP(host) ? { servername: host } : {}) }, secure: target };
    }
    const auth = proxyAuthorization(proxy);
    const proxySecure = proxy.protocol === 'https:';
    const proxyHost = proxy.hostname.replace(/^\[|\]$/g, '');
    const proxyPort = Number(proxy.port || (proxySecure ? 443 : 80));
    if (!target) {
      // An http target through a proxy: the request in absolute form, to the proxy.
      const agent = this.agent('proxy-http', () => (proxySecure ? new https.Agent({ keepAlive: true, maxSockets: this.maxSockets, ...tlsOptions }) : new http.Agent({ keepAlive: true, maxSockets: this.maxSockets })));
      return { agent, options: { host: proxyHost, port: proxyPort, path: rawTarget === undefined ? url.href : url.origin + rawTarget, headers: { ...headers, host: url.host, ...auth } }, secure: proxySecure };
    }
    // An https target through a proxy: a CONNECT tunnel, then TLS to the target inside it.
    const agent = this.agent('proxy-https', () => new TunnelAgent({ keepAlive: true, maxSockets: this.maxSockets, ...tlsOptions }, { host: proxyHost, port: proxyPort, secure: proxySecure, headers: auth, timeoutMs: this.settings.connectTimeoutMs ?? this.settings.timeoutMs }));
    return { agent, options: { host, port, path, headers, ...(!isIP(host) ? { servername: host } : {}) }, secure: true };
  }

  private agent(kind: string, make: () => http.Agent): http.Agent {
    let agent = this.made.get(kind);
    if (!agent) this.made.set(kind, (agent = make()));
    return agent;
  }

  destroy(): void {
    for (const agent of this.made.values()) agent.destroy();
    this.made.clear();
  }
}

/** user:password of a proxy URL, as Proxy-Authorization. */
function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

interface TunnelProxy {
  host: string;
  port: number;
  secure: boolean;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** An https agent whose sockets are TLS inside a CONNECT tunnel through the proxy. */
class TunnelAgent extends https.Agent {
  constructor(
    options: https.AgentOptions,
    private readonly proxy: TunnelProxy,
  ) {
    super(options);
  }

  // node:http's Agent takes a socket handed to the callback (documented for createConnection).
  override createConnection(options: https.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): undefined {
    const host = options.host ?? 'localhost';
    const authority = `${host.includes(':') ? `[${host}]` : host}:${options.port ?? 443}`;
    // On an error node:http's Agent takes no socket: the callback's type asks for one regardless.
    const failed = (err: Error) => (callback as ((err: Error) => void) | undefined)?.(err);
    const connect = (this.proxy.secure ? https : http).request({ host: this.proxy.host, port: this.proxy.port, method: 'CONNECT', path: authority, headers: { host: authority, ...this.proxy.headers }, agent: false });
    const timer = setTimeout(() => connect.destroy(new TransportError('no answer from the proxy to CONNECT', 'CONNECT_TIMEOUT')), this.proxy.timeoutMs);
    connect.once('connect', (res, socket) => {
      clearTimeout(timer);
      if (res.statusCode !== 200) {
        socket.destroy();
        failed(new TransportError(`the proxy answered ${res.statusCode} to CONNECT`, 'PROXY_REFUSED'));
        return;
      }
      callback?.(null, tls.connect({ ...(options as tls.ConnectionOptions), socket }));
    });
    connect.once('error', (err) => {
      clearTimeout(timer);
      failed(err);
    });
    connect.end();
    return undefined;
  }
}
