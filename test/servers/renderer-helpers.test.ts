/**
 * Pure helpers of the Servers screen: the editor's form ↔ entry conversion (per-field messages,
 * line-level env/header errors) and RFC 6570 expansion for resource templates.
 */
import { describe, expect, it } from 'vitest';
import { emptyForm, entryFromForm, formFromEntry } from '../../renderer/screens/servers/editor-form.js';
import { expandTemplate, templateVariables } from '../../renderer/screens/servers/uri-template.js';

describe('server editor form', () => {
  it('round-trips a stdio entry and an HTTP entry', () => {
    const stdio = { transport: 'stdio' as const, command: 'npx', args: ['-y', 'pkg'], env: { A: '1', B: 'x=y' }, cwd: '/tmp', timeoutMs: 5000 };
    const back = entryFromForm(formFromEntry('fs', stdio));
    expect(back).toEqual({ ok: true, name: 'fs', entry: { ...stdio, disabled: undefined, maxToolRounds: undefined, protocol: undefined } });
    const http = { transport: 'sse' as const, url: 'https://x.example/sse', headers: { 'X-Team': 'blue: green' } };
    expect(entryFromForm(formFromEntry('remote', http))).toMatchObject({ ok: true, entry: http });
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
