/**
 * Where and how a team server listens (`serve --host … --port …`), decided before anything starts:
 * loopback stays the default; an address other machines can reach needs TLS, either from
 * certificate files (`--tls-cert`, `--tls-key`) or from a reverse proxy in front
 * (`--behind-tls-proxy`: plain HTTP, accepted only from the proxy's addresses, `--trusted-proxy`,
 * which must say `X-Forwarded-Proto: https`). Pure functions: every rule is unit-tested.
 */
import { BlockList, isIP } from 'node:net';

/** Port a team server listens on when `--port` names none. */
export const DEFAULT_SERVE_PORT = 47620;
/** Addresses a TLS proxy is trusted from by default: this machine. */
export const DEFAULT_TRUSTED_PROXIES: readonly string[] = ['127.0.0.1', '::1'];

/** The listening options as given (command line). */
export interface ServeListenOptions {
  /** `--host`: an address or host name (IPv6 with or without brackets); default 127.0.0.1. */
  host?: string;
  /** `--port`: 0 (any free port) to 65535; default {@link DEFAULT_SERVE_PORT}. */
  port?: string;
  tlsCert?: string;
  tlsKey?: string;
  behindTlsProxy?: boolean;
  /** Addresses or CIDR ranges (`10.0.0.0/8`) the proxy connects from. */
  trustedProxies?: string[];
  /** The address people and programs use (`https://console.example.com`). */
  publicUrl?: string;
}

/** What the team server does. */
export interface ListenPlan {
  host: string;
  /** 0: any free port. */
  port: number;
  /** Whether `host` is this machine only. */
  loopback: boolean;
  /** Certificate and key files (PEM) to serve TLS with. */
  tls?: { certFile: string; keyFile: string };
  /** Plain HTTP from a TLS proxy at these addresses or ranges. */
  proxy?: { trusted: string[] };
  /**
   * The public address's origin (`https://console.example.com`, no path); absent only on
   * loopback, where it is `http(s)://127.0.0.1:<port>` once the port is known.
   */
  publicUrl?: string;
}

/** A listening option that cannot be honoured: said to the operator (a usage error). */
export class ListenRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenRefusal';
  }
}

/** Whether `host` is this machine only: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** Host a team server listens on when `--host` names none: this machine only. */
export const DEFAULT_SERVE_HOST = '127.0.0.1';

/**
 * `--host` and `--port`, checked: an address or host name (an IPv6 address with or without
 * brackets), a port of 0 (any free one) to 65535.
 * @throws ListenRefusal for an empty host, a host with a port in it, or a port that is not 0 to 65535
 */
export function parseHostPort(hostText: string = DEFAULT_SERVE_HOST, portText: string = String(DEFAULT_SERVE_PORT)): { host: string; port: number } {
  const trimmed = hostText.trim();
  const host = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  if (!host || /[\s/[\]]/.test(host)) throw new ListenRefusal(`--host ${JSON.stringify(hostText)}: give an address or host name, e.g. 0.0.0.0 or ::`);
  if (!isIP(host) && host.includes(':')) throw new ListenRefusal(`--host ${JSON.stringify(hostText)}: give the port with --port`);
  const port = Number(portText);
  if (!/^\d+$/.test(portText.trim()) || port > 65_535) throw new ListenRefusal(`--port ${JSON.stringify(portText)}: the port must be 0 to 65535`);
  return { host, port };
}

/** The public address's origin. @throws ListenRefusal when it is not http(s), has a path, query or fragment, or must be https and is not */
function publicOrigin(value: string, mustBeHttps: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ListenRefusal(`--public-url ${JSON.stringify(value)} is not an address (e.g. https://console.example.com)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ListenRefusal(`--public-url must be an https address: ${JSON.stringify(value)}`);
  if (mustBeHttps && url.protocol !== 'https:') throw new ListenRefusal(`--public-url must be https (people reach the console through TLS): ${JSON.stringify(value)}`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new ListenRefusal(`--public-url must be the address's root, without a path: ${JSON.stringify(value)} (serve the console on a host name of its own)`);
  }
  return url.origin;
}

/** The trusted proxies, checked. @throws ListenRefusal for one that is neither an address nor a CIDR range */
function trustedProxies(list: readonly string[]): string[] {
  for (const entry of list) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!family || !okBits || extra !== undefined) throw new ListenRefusal(`--trusted-proxy ${JSON.stringify(entry)}: give an IP address or a CIDR range (10.0.0.0/8)`);
  }
  return [...list];
}

/**
 * Decides how to listen.
 * @throws ListenRefusal when an address other machines can reach has neither TLS nor
 *   `--behind-tls-proxy`; when only one of `--tls-cert` and `--tls-key` is given, or TLS and a
 *   proxy both; when `--trusted-proxy` comes without `--behind-tls-proxy`; when `--public-url` is
 *   missing where it is needed (beyond loopback, behind a proxy) or malformed
 */
export function planListening(opts: ServeListenOptions): ListenPlan {
  const { host, port } = parseHostPort(opts.host, opts.port);
  const loopback = isLoopbackHost(host);
  if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined)) throw new ListenRefusal('--tls-cert and --tls-key go together (the certificate chain and its private key, PEM files)');
  const tls = opts.tlsCert !== undefined && opts.tlsKey !== undefined ? { certFile: opts.tlsCert, keyFile: opts.tlsKey } : undefined;
  if (tls && opts.behindTlsProxy) throw new ListenRefusal('--behind-tls-proxy is for plain HTTP behind a proxy that holds the certificate: give it or --tls-cert/--tls-key, not both');
  if (opts.trustedProxies?.length && !opts.behindTlsProxy) throw new ListenRefusal('--trusted-proxy goes with --behind-tls-proxy');
  if (!loopback && !tls && !opts.behindTlsProxy) {
    throw new ListenRefusal(
      `refusing to listen on ${isIP(host) === 6 ? `[${host}]` : host}:${port} without TLS: other machines would send the admin token and every prompt in the clear. Give --tls-cert and --tls-key, or put a TLS proxy in front and give --behind-tls-proxy (and --trusted-proxy when it runs on another machine)`,
    );
  }
  const needsPublic = !loopback || opts.behindTlsProxy === true;
  if (needsPublic && opts.publicUrl === undefined) {
    throw new ListenRefusal('--public-url is needed beyond loopback and behind a proxy: the address people open (https://console.example.com); the UI accepts connections from pages of that origin only');
  }
  const publicUrl = opts.publicUrl === undefined ? undefined : publicOrigin(opts.publicUrl, needsPublic);
  return {
    host,
    port,
    loopback,
    ...(tls && { tls }),
    ...(opts.behindTlsProxy && { proxy: { trusted: trustedProxies(opts.trustedProxies?.length ? opts.trustedProxies : DEFAULT_TRUSTED_PROXIES) } }),
    ...(publicUrl && { publicUrl }),
  };
}

/** A matcher of the trusted proxies' addresses (IPv4-mapped IPv6 addresses count as their IPv4). */
export function proxyMatcher(trusted: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of trusted) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    if (!address) return false;
    const plain = address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}
