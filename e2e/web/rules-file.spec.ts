/**
 * The rules file on the Rules screen (fake API): "Import…" is a button like "Export…" beside it —
 * the same look, reached with Tab, its focus shown, opened with the keyboard — and imports the file
 * the person chooses.
 */
import { expect, openConsole, recorded, test } from '../support/ui.js';
import { walkPolicy } from '../support/walk.js';

/** What makes a control look like a button: its box, colours and type. */
const look = (el: Element) => {
  const s = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  return {
    border: `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`,
    radius: s.borderTopLeftRadius,
    background: s.backgroundColor,
    padding: `${s.paddingTop} ${s.paddingLeft}`,
    font: `${s.fontSize} ${s.fontWeight}`,
    color: s.color,
    height: Math.round(box.height),
    cursor: s.cursor,
  };
};

test('Import… is a button like Export…: same look, reached with Tab, opened with the keyboard; it imports the chosen file', async ({ page, appUrl, fixture }) => {
  fixture.state.policy = walkPolicy();
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-rules').click();
  const exportButton = page.getByTestId('rules-export');
  const importButton = page.locator('label', { has: page.getByTestId('rules-import') });
  await expect(importButton).toHaveText('Import…');
  expect(await importButton.evaluate(look)).toEqual(await exportButton.evaluate(look));

  await exportButton.focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('rules-import')).toBeFocused();
  expect(await importButton.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
  const text = '{"version":1,"servers":{}}';
  await chooser.setFiles({ name: 'team-rules.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect.poll(() => recorded(page, 'importRules')).toEqual([{ text }]);
  await expect(page.getByTestId('rules-imported')).toContainText('team-rules.json');
});

test("a team's rule book: the section names the team's database, and a save names the revision on screen", async ({ page, appUrl, fixture }) => {
  fixture.state.policy = { ...walkPolicy(), path: 'db.example.net:5432/console', source: 'database', revision: 7 };
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-rules').click();
  await expect(page.getByText('Team rule book')).toBeVisible();
  await expect(page.getByTestId('rules-location')).toHaveText('db.example.net:5432/console');
  await expect(page.getByText("Kept in the team's database and shared by every instance.")).toBeVisible();
  await page.getByTestId('limit-maxWaiting').fill('5');
  await page.getByTestId('limits-save').click();
  // The first server in the list is shown; its limit goes into the book the screen shows, named by its revision.
  await expect.poll(async () => (await recorded(page, 'saveRules'))[0]).toMatchObject({ baseRevision: 7, rules: { servers: { 'broken-python': { limits: { maxWaiting: 5 } }, everything: { rules: [{ id: 'r-notes' }] } } } });
  await page.screenshot({ path: 'test-results/rules-team-book.png' });
});
