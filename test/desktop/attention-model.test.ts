import { describe, expect, it } from 'vitest';
import { buildTrayModel, callLabel, firstLine, notificationFor, promptLine, waitingEntries } from '../../main/attention/model.js';
import { DESKTOP_MESSAGES, desktopT, desktopTFor } from '../../main/attention/messages.js';
import { attentionTitle } from '../../shared/contract/desktop.js';
import { elicitation, samplingItem } from './helpers.js';

describe('firstLine', () => {
  it('takes the first non-empty line, trimmed', () => {
    expect(firstLine('\n\n   Summarise this file  \nsecond line')).toBe('Summarise this file');
  });
  it('cuts long lines with an ellipsis at the limit', () => {
    const line = firstLine('x'.repeat(500), 20);
    expect(line).toHaveLength(20);
    expect(line.endsWith('…')).toBe(true);
  });
  it('gives an empty string for blank text', () => {
    expect(firstLine('  \n\t\n')).toBe('');
  });
  it('reads only the first lines of a huge text: CRLF, blank lines, a line longer than it reads', () => {
    expect(firstLine(`   \r\n\r\n  Build log\r\n${'x'.repeat(5_000_000)}`)).toBe('Build log');
    const long = firstLine(`\n${'word '.repeat(1_000_000)}`, 30);
    expect(long).toHaveLength(30);
    expect(long.startsWith('word word')).toBe(true);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('promptLine', () => {
  it('uses the last user message with text (the prompt asked about), skipping tool results', () => {
    const line = promptLine([
      { role: 'user', content: { type: 'text', text: 'What is the weather in Paris?' } },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: [] }] },
    ]);
    expect(line).toBe('What is the weather in Paris?');
  });
  it('falls back to the system prompt, then to the kinds of content', () => {
    expect(promptLine([{ role: 'user', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } }], 'Describe images\nbriefly')).toBe('Describe images');
    expect(promptLine([{ role: 'user', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } }])).toBe('(image)');
  });
});

describe('callLabel', () => {
  it('names the call when known, lists candidates when not', () => {
    const call = (name: string) => ({ callId: name, kind: 'tools/call' as const, name });
    expect(callLabel({ exact: true, calls: [call('a'), call('b')] })).toBe('a');
    expect(callLabel({ exact: false, calls: [call('a'), call('b'), call('c'), call('d')] })).toBe('a or b (+2)');
    expect(callLabel({ exact: false, calls: [] })).toBeUndefined();
  });
});

describe('waitingEntries', () => {
  it('counts request and response review and elicitations awaiting input, oldest first; nothing else', () => {
    const entries = waitingEntries(
      [
        samplingItem('gen', 'generating'),
        samplingItem('resp', 'awaiting_response_review', { at: 300 }),
        samplingItem('done', 'delivered'),
        samplingItem('req', 'awaiting_request_review', { at: 100, tool: 'trigger-sampling-request', prompt: 'Write a limerick\nabout cats' }),
        samplingItem('rej', 'rejected'),
      ],
      [elicitation('el', 'Which folder?', 'awaiting_input', 200), elicitation('el-done', 'x', 'accepted')],
    );
    expect(entries.map((e) => [e.itemId, e.phase])).toEqual([
      ['req', 'request'],
      ['el', 'input'],
      ['resp', 'response'],
    ]);
    expect(entries[0]).toMatchObject({ kind: 'sampling', serverId: 'everything', tool: 'trigger-sampling-request', firstLine: 'Write a limerick' });
    expect(entries[1]).toMatchObject({ kind: 'elicitation', serverId: 'forms', tool: 'ask-user', firstLine: 'Which folder?' });
  });
});

describe('notificationFor', () => {
  it('names the server, the tool and the first prompt line; silent unless sound is on', () => {
    const [entry] = waitingEntries([samplingItem('a', 'awaiting_request_review', { tool: 'summarise', prompt: 'Summarise README.md\n\nmore' })]);
    expect(notificationFor(entry!, false)).toEqual({ title: 'everything asks for a completion', body: 'summarise: Summarise README.md', silent: true, itemId: 'a' });
    expect(notificationFor(entry!, true).silent).toBe(false);
  });
  it('says when it is a response to review or an input request', () => {
    const [resp] = waitingEntries([samplingItem('r', 'awaiting_response_review')]);
    expect(notificationFor(resp!, false).title).toBe('Response to review for everything');
    const [input] = waitingEntries([], [elicitation('e', 'Your name?')]);
    expect(notificationFor(input!, false)).toMatchObject({ title: 'forms asks for your input', body: 'ask-user: Your name?' });
  });
});

describe('tray model', () => {
  it('shows the count in the open entry and the tooltip, and the two switches checked as they are', () => {
    const model = buildTrayModel({ count: 3, paused: true, doNotDisturb: false });
    expect(model.tooltip).toBe('MCP Approval Console — 3 waiting');
    expect(model.menu).toEqual([
      { kind: 'action', id: 'open', label: 'Open console (3 waiting)', enabled: true },
      { kind: 'separator' },
      { kind: 'checkbox', id: 'pause-auto-approval', label: 'Pause auto-approval', checked: true },
      { kind: 'checkbox', id: 'do-not-disturb', label: 'Do not disturb', checked: false },
      { kind: 'separator' },
      { kind: 'action', id: 'quit', label: 'Quit', enabled: true },
    ]);
    expect(buildTrayModel({ count: 0, paused: false, doNotDisturb: true }).tooltip).toBe('MCP Approval Console — nothing waiting');
  });
});

describe('attentionTitle', () => {
  it('prefixes the count, bare name at zero', () => {
    expect(attentionTitle(3)).toBe('(3) MCP Approval Console');
    expect(attentionTitle(0)).toBe('MCP Approval Console');
  });
});

describe('desktop texts follow the UI language', () => {
  it('notification and tray in Simplified Chinese', () => {
    const zh = desktopT('zh-CN');
    const [entry] = waitingEntries([samplingItem('a', 'awaiting_request_review', { tool: 'summarise', prompt: 'Summarise README.md' })]);
    expect(notificationFor(entry!, false, zh)).toMatchObject({ title: 'everything 请求一次补全', body: 'summarise：Summarise README.md' });
    const model = buildTrayModel({ count: 2, paused: false, doNotDisturb: true }, zh);
    expect(model.tooltip).toBe('MCP Approval Console — 2 项待处理');
    expect(model.menu.filter((m) => m.kind !== 'separator').map((m) => ('label' in m ? m.label : ''))).toEqual(['打开控制台（2 项待处理）', '暂停自动批准', '勿扰模式', '退出']);
  });
  it('an empty prompt or message still reads as something, in the language', () => {
    const [input] = waitingEntries([], [elicitation('e', '')]);
    expect(notificationFor(input!, false).body).toBe('ask-user: (no message)');
    expect(notificationFor(input!, false, desktopT('zh-CN')).body).toBe('ask-user：（无消息）');
  });
  it('`system` resolves from the OS locales; an explicit choice wins', () => {
    expect(desktopTFor('system', ['zh-Hans-CN', 'en-US'])('quit')).toBe('退出');
    expect(desktopTFor('system', ['de-DE'])('quit')).toBe('Quit');
    expect(desktopTFor('en', ['zh-CN'])('quit')).toBe('Quit');
  });
  it('every language has every desktop message, with the same {{placeholders}}', () => {
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [lang, catalogue] of Object.entries(DESKTOP_MESSAGES)) {
      expect(Object.keys(catalogue), lang).toEqual(Object.keys(DESKTOP_MESSAGES.en));
      for (const [key, text] of Object.entries(catalogue)) expect(vars(text), `${lang} ${key}`).toEqual(vars(DESKTOP_MESSAGES.en[key as keyof typeof DESKTOP_MESSAGES.en]));
    }
  });
});
