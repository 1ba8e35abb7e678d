/**
 * A challenge attempt survives a reload: the hints shown stay shown and still cost points, refused
 * answers stay counted, and a solved attempt keeps its score. Another seed is a fresh attempt.
 */
import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors, terminalScreen } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

// Seed 1 of node-notready hides a malformed conflist on node-2 (as in challenge-debrief.spec.ts).
const RIGHT_CAUSE = 'The conflist in /etc/cni/net.d is not valid JSON';
const WRONG_CAUSE = 'There is no network configuration in /etc/cni/net.d';

async function openChallenge(page: Page) {
  const panel = page.getByRole('region', { name: 'Challenge: A node goes NotReady' });
  await expect(panel).toBeVisible({ timeout: 30_000 });
  return panel;
}

test('a reload keeps the hints, the refused answers and the score they cost', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = collectPageErrors(page);
  await page.goto('./#/challenge/node-notready?seed=1');
  let panel = await openChallenge(page);
  // What the attempt has cost so far (a paragraph under the ticket).
  const attempt = panel.getByText(/^So far: /);
  await expect(attempt).toContainText('0 hints, 0 refused answers');

  await panel.getByRole('button', { name: 'Show a hint' }).click();
  const hints = panel.locator('.hints li');
  await expect(hints).toHaveCount(1);
  const hint = await hints.first().textContent();

  // A wrong cause, no fix: refused.
  await panel.getByRole('radio', { name: WRONG_CAUSE }).check();
  await panel.getByRole('button', { name: 'Submit answer' }).click();
  await expect(panel.getByText('Refused answers so far: 1.')).toBeVisible({ timeout: 90_000 });
  await expect(attempt).toContainText('1 hint, 1 refused answer');

  await page.reload();
  panel = await openChallenge(page);
  // The same hint, still counted; the refusal too.
  await expect(hints).toHaveCount(1);
  await expect(hints.first()).toHaveText(hint ?? '');
  await expect(attempt).toContainText('1 hint, 1 refused answer');

  // The right answer now scores both: 100 - 15 (hint) - 10 (refused).
  await panel.getByRole('radio', { name: RIGHT_CAUSE }).check();
  await panel.getByRole('checkbox', { name: /^Restore the node/ }).check();
  await panel.getByRole('button', { name: 'Submit answer' }).click();
  const score = panel.getByText(/Score 75 \/ 100 \(hints 1, steps \d+, refused answers 1\)/);
  await expect(score).toBeVisible({ timeout: 90_000 });
  const saved = await page.evaluate<string | null>("localStorage.getItem('cnisim.course.v1')");
  expect(JSON.parse(saved ?? '{}').challenges['node-notready']).toMatchObject({
    solved: true,
    best: 75,
    attempt: { seed: 1, hints: 1, refused: 1, status: 'solved' },
  });

  // Solved stays solved, with its score: no fresh attempt on the same seed.
  await page.reload();
  panel = await openChallenge(page);
  await expect(panel.getByText('Solved: the node recovered.')).toBeVisible();
  await expect(score).toBeVisible();
  await expect(panel.getByLabel('Debrief')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Show a hint' })).toBeDisabled();
  await expect(panel.getByRole('button', { name: 'Submit answer' })).toBeDisabled();

  // Another seed is a fresh attempt.
  await panel.getByRole('link', { name: 'Try another seed' }).click();
  await expect(page).not.toHaveURL(/seed=1$/);
  await openChallenge(page);
  await expect(attempt).toContainText('0 hints, 0 refused answers');
  await expect(hints).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a tampered saved attempt is left out with a notice; the rest of the progress stays', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const errors = collectPageErrors(page);
  await page.goto('./');
  const saved = {
    app: 'cnisim-course',
    version: 1,
    lessons: {},
    challenges: {
      'node-notready': {
        attempts: 1,
        solved: true,
        best: 70,
        seed: 1,
        attempt: { seed: 1, opened: 1, steps: 0, hints: -5, refused: 0, status: 'open' },
      },
    },
  };
  await page.evaluate(
    (text) => localStorage.setItem('cnisim.course.v1', text),
    JSON.stringify(saved),
  );
  await page.goto('./#/course');
  await expect(page.getByRole('heading', { name: 'Course' })).toBeVisible({ timeout: 20_000 });
  await expect(
    page.getByRole('alert').filter({ hasText: 'A saved challenge attempt could not be read' }),
  ).toBeVisible();
  // The rest of the progress: the solve and its best score.
  await expect(page.getByText('Solved, best score 70')).toBeVisible();
  // The seed starts a fresh attempt: no hint given away, none charged.
  await page.goto('./#/challenge/node-notready?seed=1');
  await openChallenge(page);
  await expect(page.getByText(/^So far: /)).toContainText('0 hints, 0 refused answers');
  expect(errors).toEqual([]);
});

test("a reload keeps the learner's work on the cluster and the step they were at", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = collectPageErrors(page);
  await page.goto('./#/challenge/node-notready?seed=1');
  const panel = await openChallenge(page);
  const attempt = panel.getByText(/^So far: /);

  // The learner changes node-1 from its shell, then steps on.
  await page.getByRole('tab', { name: 'Shell' }).click();
  const terminal = page.locator('.shell-terminal textarea');
  await terminal.focus();
  await page.keyboard.type('touch /tmp/my-notes && ls /tmp\n');
  await expect.poll(() => terminalScreen(page)).toContain('my-notes');
  await page.keyboard.press('Escape');
  const forward = page.getByRole('button', { name: 'Step forward', exact: true });
  await forward.click();
  await expect(forward).toBeEnabled();
  await forward.click();
  await expect(forward).toBeEnabled();
  const position = await page.locator('.position').textContent();
  const cost = await attempt.textContent();

  await page.reload();
  await openChallenge(page);
  // The same step of the same trace, the same attempt (the replay is not counted as steps).
  await expect(page.locator('.position')).toHaveText(position!, { timeout: 30_000 });
  await expect(attempt).toHaveText(cost!);
  // And node-1 as the learner left it.
  await page.getByRole('tab', { name: 'Shell' }).click();
  await page.locator('.shell-terminal textarea').focus();
  await page.keyboard.type('ls /tmp\n');
  await expect.poll(() => terminalScreen(page)).toMatch(/ls \/tmp\s*my-notes/);
  expect(errors).toEqual([]);
});

test('saved work that was tampered with is left out with a notice; the challenge opens as it starts', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  await page.goto('./#/challenge/node-notready?seed=1');
  await openChallenge(page);
  const arrived = await page.locator('.position strong').textContent();
  const back = page.getByRole('button', { name: 'Step back', exact: true });
  await back.click();
  await back.click();
  await expect(page.locator('.position strong')).toHaveText(String(Number(arrived) - 2));
  await expect
    .poll(() =>
      page.evaluate("JSON.parse(localStorage.getItem('cnisim.challenge-work.v1'))?.cursor"),
    )
    .toBe(Number(arrived) - 3);
  // Someone edits one of the challenge's own actions out of the saved work (away from the challenge, which saves
  // its work as the page goes).
  await page.goto('./#/course');
  await expect(page.getByRole('heading', { name: 'Course' })).toBeVisible({ timeout: 20_000 });
  await page.evaluate(() => {
    const w = JSON.parse(localStorage.getItem('cnisim.challenge-work.v1')!);
    w.actions.shift();
    localStorage.setItem('cnisim.challenge-work.v1', JSON.stringify(w));
  });
  await page.goto('./#/challenge/node-notready?seed=1');
  await openChallenge(page);
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'Your work on this challenge could not be restored' }),
  ).toContainText("the challenge's own actions are not all there");
  await expect(page.locator('.position strong')).toHaveText(arrived!);
  expect(errors).toEqual([]);
});
