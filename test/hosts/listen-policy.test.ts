/**
 * Where a team server may listen: loopback by default; beyond it only with TLS from files or
 * behind a TLS proxy (with the public address people open); each refusal says what to do.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVE_PORT, isLoopbackHost, ListenRefusal, parseHostPort, planListening, proxyMatcher } from '../../app/web/listen-policy.js';

describe('--host and --port', () => {
  it.each([
    [['0.0.0.0', '8080'], { host: '0.0.0.0', port: 8080 }],
    [['127.0.0.1', '0'], { host: '127.0.0.1', port: 0 }],
    [['::', '8443'], { host: '::', port: 8443 }],
    [['[::1]', undefined], { host: '::1', port: DEFAULT_SERVE_PORT }],
    [['console.internal', undefined], { host: 'console.internal', port: DEFAULT_SERVE_PORT }],
    [[undefined, '9000'], { host: '127.0.0.1', port: 9000 }],
  ] as const)('%j', ([host, port], expected) => {
    expect(parseHostPort(host, port)).toEqual(expected);
  });

  it.each([
    ['0.0.0.0:80', undefined],
    ['', undefined],
    ['[::1', undefined],
    ['0.0.0.0', 'http'],
    ['0.0.0.0', '70000'],
    ['0.0.0.0', '-1'],
  ] as const)('refuses %j %j', (host, port) => {
    expect(() => parseHostPort(host, port)).toThrow(ListenRefusal);
  });

  it('knows loopback', () => {
    expect(['127.0.0.1', '127.8.9.10', '::1', 'localhost', 'LOCALHOST'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '::', '10.0.0.1', '127.example.com', 'console.internal'].some(isLoopbackHost)).toBe(false);
  });
});

describe('planListening', () => {
  it('defaults to loopback, plain HTTP, the public address known once bound', () => {
    expect(planListening({})).toEqual({ host: '127.0.0.1', port: DEFAULT_SERVE_PORT, loopback: true });
  });

  it('refuses an address other machines reach without TLS or a TLS proxy, saying what to give', () => {
    for (const host of ['0.0.0.0', '::', '10.1.2.3']) {
      expect(() => planListening({ host, port: '8080', publicUrl: 'https://c.example.com' })).toThrow(/without TLS: .*--tls-cert and --tls-key.*--behind-tls-proxy/);
    }
    expect(() => planListening({ host: '::', port: '8080' })).toThrow(/refusing to listen on \[::\]:8080 without TLS/);
  });

  it('takes TLS from certificate files beyond loopback, with the public address (https)', () => {
    expect(planListening({ host: '0.0.0.0', port: '8443', tlsCert: '/c.pem', tlsKey: '/k.pem', publicUrl: 'https://console.example.com/' })).toEqual({
      host: '0.0.0.0',
      port: 8443,
      loopback: false,
      tls: { certFile: '/c.pem', keyFile: '/k.pem' },
      publicUrl: 'https://console.example.com',
    });
    expect(() => planListening({ host: '0.0.0.0', port: '8443', tlsCert: '/c.pem' })).toThrow(/go together/);
    expect(() => planListening({ host: '0.0.0.0', port: '8443', tlsCert: '/c.pem', tlsKey: '/k.pem' })).toThrow(/--public-url is needed/);
    expect(() => planListening({ host: '0.0.0.0', port: '8443', tlsCert: '/c.pem', tlsKey: '/k.pem', publicUrl: 'http://console.example.com' })).toThrow(/must be https/);
  });

  it('behind a TLS proxy: plain HTTP from loopback proxies by default, or the ranges given', () => {
    expect(planListening({ port: '8081', behindTlsProxy: true, publicUrl: 'https://console.example.com' })).toMatchObject({ loopback: true, proxy: { trusted: ['127.0.0.1', '::1'] }, publicUrl: 'https://console.example.com' });
    expect(planListening({ host: '0.0.0.0', port: '8081', behindTlsProxy: true, trustedProxies: ['10.0.0.0/8', 'fd00::/8', '192.168.1.5'], publicUrl: 'https://c.example.com' }).proxy).toEqual({ trusted: ['10.0.0.0/8', 'fd00::/8', '192.168.1.5'] });
    expect(() => planListening({ port: '8081', behindTlsProxy: true })).toThrow(/--public-url is needed/);
    expect(() => planListening({ behindTlsProxy: true, trustedProxies: ['proxy.internal'], publicUrl: 'https://c.example.com' })).toThrow(/--trusted-proxy "proxy.internal"/);
    expect(() => planListening({ behindTlsProxy: true, trustedProxies: ['10.0.0.0/33'], publicUrl: 'https://c.example.com' })).toThrow(/--trusted-proxy/);
    expect(() => planListening({ trustedProxies: ['10.0.0.1'] })).toThrow(/goes with --behind-tls-proxy/);
    expect(() => planListening({ behindTlsProxy: true, tlsCert: '/c', tlsKey: '/k', publicUrl: 'https://c.example.com' })).toThrow(/not both/);
  });

  it('the public address is the root of an http(s) origin', () => {
    expect(() => planListening({ publicUrl: 'https://example.com/console/' })).toThrow(/without a path/);
    expect(() => planListening({ publicUrl: 'ftp://example.com' })).toThrow(/https address/);
    expect(() => planListening({ publicUrl: 'not a url' })).toThrow(/not an address/);
    expect(planListening({ publicUrl: 'http://localhost:47620' }).publicUrl).toBe('http://localhost:47620');
  });
});

describe('proxyMatcher', () => {
  it('matches addresses and ranges, IPv4-mapped IPv6 as IPv4; nothing else', () => {
    const trusted = proxyMatcher(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
    expect(['127.0.0.1', '::ffff:127.0.0.1', '10.200.3.4', 'fd12::1'].every(trusted)).toBe(true);
    expect(['127.0.0.2', '11.0.0.1', '::1', 'fe80::1', undefined, 'garbage'].some(trusted)).toBe(false);
  });
});
