import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isExternalWebUrl, isTrustedIpcEvent, isTrustedSender, type ExpectedRenderer } from '../../app/electron/sender-check.js';

const index = path.resolve('/opt/console/out/renderer/index.html');
const fileExpected: ExpectedRenderer = { kind: 'file', indexHtmlPath: index };
const devExpected: ExpectedRenderer = { kind: 'dev', url: 'http://localhost:5173/' };
const indexUrl = pathToFileURL(index).href;

describe('isTrustedSender', () => {
  it('accepts the built index.html, with or without query and hash', () => {
    expect(isTrustedSender(indexUrl, fileExpected)).toBe(true);
    expect(isTrustedSender(`${indexUrl}?x=1#/queue`, fileExpected)).toBe(true);
    expect(isTrustedSender('file:///opt/console/out/renderer/./index.html', fileExpected)).toBe(true);
  });

  it.each([
    ['another file', 'file:///opt/console/out/renderer/other.html'],
    ['a sibling folder', 'file:///opt/console/out/renderer2/index.html'],
    ['dot segments escaping', 'file:///opt/console/out/renderer/index.html/../../evil.html'],
    ['a file host', 'file://evil.example/opt/console/out/renderer/index.html'],
    ['http', 'http://127.0.0.1/index.html'],
    ['https', 'https://evil.example/'],
    ['data:', 'data:text/html,<script>1</script>'],
    ['about:blank', 'about:blank'],
    ['devtools', 'devtools://devtools/bundled/index.html'],
    ['garbage', 'not a url'],
    ['empty', ''],
  ])('refuses %s in file mode', (_name, url) => {
    expect(isTrustedSender(url, fileExpected)).toBe(false);
  });

  it('compares Windows paths case-insensitively', () => {
    const win: ExpectedRenderer = { kind: 'file', indexHtmlPath: 'C:\\Program Files\\Console\\out\\renderer\\index.html' };
    expect(isTrustedSender('file:///c:/program%20files/console/out/renderer/index.html', win, 'win32')).toBe(true);
    expect(isTrustedSender('file:///C:/Program%20Files/Console/out/renderer/other.html', win, 'win32')).toBe(false);
  });

  it('in dev mode accepts exactly the dev server origin', () => {
    expect(isTrustedSender('http://localhost:5173/', devExpected)).toBe(true);
    expect(isTrustedSender('http://localhost:5173/src/x?y#z', devExpected)).toBe(true);
    expect(isTrustedSender('http://localhost:5174/', devExpected)).toBe(false);
    expect(isTrustedSender('http://127.0.0.1:5173/', devExpected)).toBe(false);
    expect(isTrustedSender('https://localhost:5173/', devExpected)).toBe(false);
    expect(isTrustedSender('http://localhost:5173.evil.example/', devExpected)).toBe(false);
    expect(isTrustedSender(indexUrl, devExpected)).toBe(false);
    expect(isTrustedSender('ws://localhost:5173/', devExpected)).toBe(false);
  });
});

describe('isTrustedIpcEvent', () => {
  const main = { id: 1 };
  const top = (url: string) => ({ url, parent: null });
  it('accepts the main window top frame on the app page', () => {
    expect(isTrustedIpcEvent({ sender: main, senderFrame: top(indexUrl) }, main, fileExpected)).toBe(true);
  });
  it('refuses other webContents, subframes, missing frames and no window', () => {
    expect(isTrustedIpcEvent({ sender: { id: 2 }, senderFrame: top(indexUrl) }, main, fileExpected)).toBe(false);
    expect(isTrustedIpcEvent({ sender: main, senderFrame: { url: indexUrl, parent: {} } }, main, fileExpected)).toBe(false);
    expect(isTrustedIpcEvent({ sender: main, senderFrame: null }, main, fileExpected)).toBe(false);
    expect(isTrustedIpcEvent({ sender: main, senderFrame: top(indexUrl) }, null, fileExpected)).toBe(false);
    expect(isTrustedIpcEvent({ sender: main, senderFrame: top('https://evil.example/') }, main, fileExpected)).toBe(false);
  });
});

describe('isExternalWebUrl (links opened in the system browser)', () => {
  it.each([
    ['https://modelcontextprotocol.io/docs', true],
    ['http://127.0.0.1:8080/', true],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['vscode://open?x', false],
    ['/relative/path', false],
    ['not a url', false],
  ])('%s → %s', (url, ok) => expect(isExternalWebUrl(url)).toBe(ok));
});
