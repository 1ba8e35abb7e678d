/**
 * Challenges end in a debrief: after giving up, or after a solve taken by keyboard alone, the
 * candidate reads the root cause, the fix and why each other cause offered was not it. And a
 * challenge embeds like a lesson.
 */
import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

/** Presses Tab until the focused element satisfies `test` (keyboard only: no click, no focus()). */
async function tabTo(page: Page, what: string, test: string, max = 300): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(test)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

const focused = (expr: string) =>
  `(() => { const e = document.activeElement; return !!e && (${expr}); })()`;

test('giving up shows the debrief: the cause, the fix, and why each other cause is not it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  // Seed 1 of stuck-terminating: a plugin removed under a running pod, which is then deleted.
  await page.goto('./#/challenge/stuck-terminating?seed=1');
  const panel = page.getByRole('region', {
    name: 'Challenge: A pod that never finishes terminating',
  });
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel.locator('.ticket')).toContainText('still shows Terminating');
  // Nothing of the answer before the end.
  await expect(panel.getByRole('list', { name: 'Why the other causes were not it' })).toHaveCount(
    0,
  );
  expect(await page.content()).not.toContain('A myth: the kubelet never runs CNI DEL');

  await panel.getByRole('button', { name: 'Give up' }).click();
  await panel.getByRole('button', { name: 'Yes, show the answer' }).click();
  await expect(panel.getByText('You gave up.')).toBeVisible();
  const debrief = panel.getByLabel('Debrief');
  await expect(debrief).toBeFocused();
  await expect(debrief).toContainText(
    'A plugin of the chain was removed from /opt/cni/bin after the pod was set up, so its DEL fails',
  );
  await expect(debrief).toContainText('Install the CNI plugin binaries the conflist names');
  const myths = panel.getByRole('list', { name: 'Why the other causes were not it' });
  await expect(myths.getByRole('listitem')).toHaveCount(5);
  await expect(myths).toContainText('A myth: the kubelet never runs CNI DEL');
  await expect(myths).toContainText('A missing netns does not block a DEL');
  // The attempt is over: no answer, no score.
  await expect(panel.getByRole('button', { name: 'Submit answer' })).toBeDisabled();
  await expect(panel.getByText(/Score \d+ \/ 100/)).toHaveCount(0);
  const saved = await page.evaluate<string | null>("localStorage.getItem('cnisim.course.v1')");
  expect(JSON.parse(saved ?? '{}').challenges['stuck-terminating']).toMatchObject({
    solved: false,
    attempts: 1,
  });
  expect(errors).toEqual([]);
});

test('a challenge solved by keyboard alone ends in the debrief', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectPageErrors(page);
  // Seed 1 of node-notready hides a malformed conflist on node-2.
  await page.goto('./#/challenge/node-notready?seed=1');
  const panel = page.getByRole('region', { name: 'Challenge: A node goes NotReady' });
  await expect(panel).toBeVisible({ timeout: 30_000 });

  // A hint, by keyboard.
  await tabTo(page, 'Show a hint', focused("e.textContent === 'Show a hint'"));
  await page.keyboard.press('Enter');
  await expect(panel.locator('.hints li')).toHaveCount(1);

  // The cause: Tab into the radio group, then arrows to the right choice.
  await tabTo(page, 'the causes', focused("e.getAttribute('name') === 'cause'"));
  for (let i = 0; i < 6; i++) {
    const label = await page.evaluate('document.activeElement.parentElement.textContent');
    if (String(label).includes('not valid JSON')) break;
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Space');
  await expect(panel.getByLabel('The conflist in /etc/cni/net.d is not valid JSON')).toBeChecked();

  // The fix: Tab to its checkbox and tick it.
  await tabTo(
    page,
    'the restore fix',
    focused("e.type === 'checkbox' && e.parentElement.textContent.includes('Restore the node')"),
  );
  await page.keyboard.press('Space');
  await tabTo(page, 'Submit answer', focused("e.textContent === 'Submit answer'"));
  await page.keyboard.press('Enter');

  await expect(panel.getByText('Solved: the node recovered.')).toBeVisible({ timeout: 90_000 });
  await expect(panel.getByText(/Score \d+ \/ 100 \(hints 1,/)).toBeVisible();
  const debrief = panel.getByLabel('Debrief');
  await expect(debrief).toBeFocused();
  await expect(debrief).toContainText(
    'The root cause: The conflist in /etc/cni/net.d is not valid JSON',
  );
  const myths = panel.getByRole('list', { name: 'Why the other causes were not it' });
  await expect(myths.getByRole('listitem')).toHaveCount(4);
  await expect(myths).toContainText(
    'the kubelet has had no --cni-bin-dir flag since Kubernetes 1.24',
  );
  expect(errors).toEqual([]);
});

test('a challenge embeds like a lesson: its ticket above the views, the answer in the app', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const errors = collectPageErrors(page);
  await page.goto('./embed.html?scenario=challenge:node-notready:1&views=pods,journal');
  const box = page.getByRole('region', { name: 'Challenge: A node goes NotReady' });
  await expect(box).toBeVisible({ timeout: 30_000 });
  await expect(box.locator('.ticket')).toContainText('node-2 is NotReady');
  const html = await page.content();
  for (const secret of ['conflist-malformed', 'Malformed conflist', 'not valid JSON'])
    expect(html).not.toContain(secret);
  await expect(box.getByRole('link', { name: /answer in cnisim/ })).toHaveAttribute(
    'href',
    /#\/challenge\/node-notready\?seed=1$/,
  );
  expect(errors).toEqual([]);
});
