/**
 * Pure helpers of the Servers screen: the editor's form ↔ entry conversion (per-field messages,
 * line-level env/header errors, in the UI language), the tool form's argument errors, and RFC 6570
 * expansion for resource templates.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emptyForm, entryFromForm, formFromEntry } from '../../renderer/screens/servers/editor-form.js';
import { buildArgs, parseRawArgs, schemaFields } from '../../renderer/screens/servers/schema-form.js';
import { expandTemplate, templateVariables } from '../../renderer/screens/servers/uri-template.js';

// The helpers translate through i18next's shared instance, which the renderer initialises
// (renderer/i18n); here it gets the `servers` namespace of both languages.
const servers = (lang: string) => JSON.parse(readFileSync(join(import.meta.dirname, `../../renderer/i18n/locales/${lang}/servers.json`), 'utf8')) as Record<string, unknown>;
beforeAll(async () => {
  await i18next.init({ lng: 'en', fallbackLng: 'en', resources: { en: { servers: servers('en') }, 'zh-CN': { servers: servers('zh-CN') } }, interpolation: { escapeValue: false } });
});
afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('server editor form', () => {
  it('round-trips a stdio entry and an HTTP entry', () => {
    const stdio = { transport: 'stdio' as const, command: 'npx', args: ['-y', 'pkg'], env: { A: '1', B: 'x=y' }, cwd: '/tmp', timeoutMs: 5000 };
    const back = entryFromForm(formFromEntry('fs', stdio));
    expect(back).toEqual({ ok: true, name: 'fs', entry: { ...stdio, disabled: undefined, maxToolRounds: undefined, protocol: undefined } });
    const http = { transport: 'sse' as const, url: 'https://x.example/sse', headers: { 'X-Team': 'blue: green' } };
    expect(entryFromForm(formFromEntry('remote', http))).toMatchObject({ ok: true, entry: http });
  });

  it('round-trips "Provider gateway" on a stdio entry, and leaves it out when off', () => {
    const on = { transport: 'stdio' as const, command: 'python3', args: ['agent.py'], env: {}, providerGateway: true };
    const form = formFromEntry('agent', on);
    expect(form.providerGateway).toBe(true);
    const back = entryFromForm(form);
    expect(back.ok && back.entry).toMatchObject({ transport: 'stdio', providerGateway: true });
    const off = entryFromForm({ ...form, providerGateway: false });
    expect(off.ok && 'providerGateway' in off.entry && off.entry.providerGateway).toBeFalsy();
    expect(formFromEntry('plain', { transport: 'stdio', command: 'node' }).providerGateway).toBe(false);
    // An HTTP entry has no such option, whatever the form held.
    const http = entryFromForm({ ...emptyForm(), name: 'h', transport: 'http', url: 'https://x.example/mcp', providerGateway: true });
    expect(http.ok && 'providerGateway' in http.entry).toBe(false);
  });

  it('reports problems per field, with the line for env and headers', () => {
    const form = { ...emptyForm(), name: '', command: 'npx -y pkg', env: 'GOOD=1\nno equals sign', timeoutMs: 'soon' };
    const res = entryFromForm(form);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.errors.name).toBe('Name is required');
    expect(res.errors.env).toBe('line 2: expected KEY=value');
    expect(res.errors.timeoutMs).toBe('Timeout must be a number of ms');
    expect(res.errors.command).toMatch(/put its arguments in Arguments/);
    const http = entryFromForm({ ...emptyForm(), name: 'h', transport: 'http', url: 'example.com', headers: 'Bad Name: v' });
    expect(http.ok ? {} : http.errors).toEqual({ url: expect.stringMatching(/full http/), headers: expect.stringMatching(/^Bad Name: Header names/) });
  });

  it('says the form\'s own problems in the UI language (Simplified Chinese)', async () => {
    await i18next.changeLanguage('zh-CN');
    const res = entryFromForm({ ...emptyForm(), name: 'fs', command: 'npx', env: 'A=1\nA=2', timeoutMs: 'soon', maxToolRounds: 'many' });
    expect(res.ok ? {} : res.errors).toEqual({ env: '第 2 行：变量 "A" 重复出现', timeoutMs: '超时必须是以毫秒为单位的数字', maxToolRounds: '工具轮数必须是数字' });
    const http = entryFromForm({ ...emptyForm(), name: 'h', transport: 'http', url: 'https://x.example/mcp', headers: 'X-A: 1\nno colon' });
    expect(http.ok ? {} : http.errors).toEqual({ headers: '第 2 行：应为 Name: value' });
  });
});

describe('tool form arguments', () => {
  const fields = schemaFields({ type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer' }, opts: { type: 'object' } }, required: ['q'] });

  it('builds typed arguments and names each field\'s problem', () => {
    expect(buildArgs(fields, { q: 'cats', n: '3', opts: '{"a":1}' })).toEqual({ ok: true, args: { q: 'cats', n: 3, opts: { a: 1 } } });
    const bad = buildArgs(fields, { q: '', n: '1.5', opts: '{' });
    expect(bad.ok ? {} : bad.errors).toEqual({ q: 'Required', n: 'Must be a whole number', opts: expect.stringMatching(/^Invalid JSON: /) });
    expect(parseRawArgs('[1]')).toEqual({ ok: false, error: 'Arguments must be a JSON object ({…}).' });
  });

  it('in Simplified Chinese when that is the UI language', async () => {
    await i18next.changeLanguage('zh-CN');
    const bad = buildArgs(fields, { q: '', n: 'x', opts: '' });
    expect(bad.ok ? {} : bad.errors).toEqual({ q: '必填', n: '不是数字' });
    expect(parseRawArgs('{').ok ? '' : (parseRawArgs('{') as { error: string }).error).toMatch(/^解析错误：/);
  });
});

describe('URI templates', () => {
  it('names the variables and expands the common operators', () => {
    expect(templateVariables('demo://resource/{kind}/{id}{?page,size}')).toEqual(['kind', 'id', 'page', 'size']);
    expect(expandTemplate('demo://resource/dynamic/text/{resourceId}', { resourceId: '7' })).toBe('demo://resource/dynamic/text/7');
    expect(expandTemplate('file:///{+path}', { path: 'a b/c' })).toBe('file:///a%20b/c');
    expect(expandTemplate('x://{name}', { name: 'a/b c' })).toBe('x://a%2Fb%20c');
    expect(expandTemplate('x://s{?q,n}', { q: 'cats', n: '' })).toBe('x://s?q=cats');
    expect(expandTemplate('x://s{/a,b}', { a: '1', b: '2' })).toBe('x://s/1/2');
  });
});
