import { describe, expect, it } from 'vitest';
import { distinctPreview } from '../../renderer/distinct-preview.js';

describe('distinct previews of neighbouring rows', () => {
  const a = 'Finished request number 1: summarise the deploy log of service api';
  const b = 'Finished request number 2: summarise the deploy log of service api';

  it('shows where two rows of the same tool differ, from a word start', () => {
    expect(distinctPreview(a, [b])).toBe('…request number 1: summarise the deploy log of service api');
    expect(distinctPreview(b, [a, undefined])).toBe('…request number 2: summarise the deploy log of service api');
  });

  it('leaves short shared starts, unrelated rows and identical rows alone', () => {
    expect(distinctPreview('Weekly report for the team', ['Weekly summary'])).toBe('Weekly report for the team');
    expect(distinctPreview(a, ['What is the weather in Paris?'])).toBe(a);
    expect(distinctPreview(a, [a])).toBe(a);
    expect(distinctPreview(a, [])).toBe(a);
  });

  it('uses the neighbour it shares most with', () => {
    const c = 'Finished request number 10: summarise';
    expect(distinctPreview(c, ['Finished something else entirely', 'Finished request number 11: summarise'])).toBe('…request number 10: summarise');
  });

  it('keeps context when there is no space to cut at, and never splits a surrogate pair', () => {
    const x = `${'x'.repeat(40)}A-tail`;
    const y = `${'x'.repeat(40)}B-tail`;
    expect(distinctPreview(x, [y])).toBe(`…${'x'.repeat(16)}A-tail`);
    const emoji = '😀'.repeat(20);
    const out = distinctPreview(`${emoji}1`, [`${emoji}2`]);
    expect(out.startsWith('…')).toBe(true);
    expect(out.charCodeAt(1) >= 0xd800 && out.charCodeAt(1) <= 0xdbff).toBe(true); // starts on a high surrogate
  });
});
