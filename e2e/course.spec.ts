import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors, expectNoSeriousAxeViolations } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

/** Presses Tab until the focused element satisfies `test` (keyboard only: no click, no focus()). */
async function tabTo(
  page: Page,
  what: string,
  test: string,
  opts: { back?: boolean; max?: number } = {},
): Promise<void> {
  for (let i = 0; i < (opts.max ?? 250); i++) {
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    if (await page.evaluate(test)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

const focused = (expr: string) =>
  `(() => { const e = document.activeElement; return !!e && (${expr}); })()`;

async function openLesson(page: Page, id: string): Promise<void> {
  await page.goto(`./#/lesson/${id}`);
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 20_000,
  });
  await expect(page.getByRole('region', { name: 'ADD, step by step' })).toBeVisible({
    timeout: 20_000,
  });
}

test('a learner completes the first lesson with the keyboard alone', async ({ page }) => {
  // About 250 key presses, each checked in the page: on a loaded 2-core machine that alone took
  // 80 s, and the shuffled quiz adds the arrow presses to reach each answer.
  test.setTimeout(150_000);
  const errors = collectPageErrors(page);
  await openLesson(page, 'add-step-by-step');
  const lesson = page.getByRole('region', { name: 'ADD, step by step' });
  await expect(
    lesson.getByRole('list', { name: 'Goals' }).getByText('(not met)').first(),
  ).toBeAttached();

  // The Actions tab of the Cluster pane, by keyboard: Tab to its tab list, then the arrow keys.
  await tabTo(
    page,
    'the Pods tab',
    focused(`e.getAttribute('role') === 'tab' && e.textContent === 'Pods'`),
  );
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Actions' })).toHaveAttribute('aria-selected', 'true');
  await tabTo(
    page,
    'the pod name field',
    focused(`e.tagName === 'INPUT' && e.closest('label')?.textContent?.startsWith('Pod name')`),
  );
  await page.keyboard.type('web-0');
  await page.keyboard.press('Enter');

  // Run until the pod is Running: the "Run until" select, then its Run button.
  await tabTo(
    page,
    'the Run until select',
    focused(`e.tagName === 'SELECT' && e.closest('label')?.textContent?.startsWith('Run until')`),
  );
  await page.keyboard.press('a'); // "a pod is Running"
  await expect(page.getByRole('combobox', { name: 'Run until' })).toHaveValue('running');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  // The run stops before bridge's ADD for a prediction; its first choice (bridge) has the focus.
  const prediction = lesson.getByRole('form', { name: 'Prediction' });
  await expect(prediction.getByRole('radio').first()).toBeFocused({ timeout: 30_000 });
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(lesson.getByText('Right prediction.')).toBeVisible();
  await tabTo(
    page,
    'the Run button',
    focused(`e.tagName === 'BUTTON' && e.textContent === 'Run'`),
    {
      back: true,
    },
  );
  await page.keyboard.press('Enter');
  await expect(lesson.getByText('Every goal is met: lesson complete.')).toBeVisible({
    timeout: 30_000,
  });

  // The quiz, by keyboard: Tab into each question's radio group, arrows to the answer, Space.
  // Authored ids: the page shows the choices in this learner's shuffled order.
  const answers = ['b', 'd', 'c', 'a'];
  for (const [k, answer] of answers.entries()) {
    await tabTo(
      page,
      `question ${k + 1}`,
      focused(
        `e.type === 'radio' && e.name === ${JSON.stringify(`quiz-${['who-execs-bridge', 'netns-path', 'veth-where', 'portmap-ip'][k]}`)}`,
      ),
      // From the Run button, the quiz is just above (back); after a verdict, it goes on below.
      { back: k === 0 },
    );
    // The arrow keys move through a radio group and check what they land on.
    if (await page.evaluate(focused(`e.value === '${answer}'`))) await page.keyboard.press('Space');
    for (let i = 0; i < 6 && !(await page.evaluate(focused(`e.value === '${answer}'`))); i++)
      await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
  }
  await expect(lesson.getByText('Right.')).toHaveCount(4);
  await expect(lesson.getByText('Not quite.')).toHaveCount(0);

  // Progress is saved in this browser: the course list says Done.
  const saved = await page.evaluate<string | null>("localStorage.getItem('cnisim.course.v1')");
  expect(JSON.parse(saved ?? '{}').lessons['add-step-by-step']).toMatchObject({
    done: true,
    quiz: { 'who-execs-bridge': true, 'netns-path': true, 'veth-where': true, 'portmap-ip': true },
  });
  await page.goto('./#/course');
  await expect(
    page
      .getByRole('list', { name: 'Lessons' })
      .getByRole('listitem')
      .filter({ hasText: 'ADD, step by step' })
      .getByText('Done'),
  ).toBeVisible({ timeout: 20_000 });
  expect(errors).toEqual([]);
});

test('the lesson view has no serious or critical axe violations', async ({ page }) => {
  test.setTimeout(60_000);
  await openLesson(page, 'add-step-by-step');
  await expectNoSeriousAxeViolations(page, 'lesson view');
});

test('a candidate solves a challenge; nothing on the page gives the fault away', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  // Seed 1 of node-notready hides a malformed conflist on node-2.
  await page.goto('./#/challenge/node-notready?seed=1');
  const panel = page.getByRole('region', { name: 'Challenge: A node goes NotReady' });
  await expect(panel).toBeVisible({ timeout: 20_000 });
  await expect(panel.locator('.ticket')).toContainText('node-2 is NotReady');
  const html = await page.content();
  for (const secret of ['conflist-malformed', 'Malformed conflist', 'variant', 'half-written'])
    expect(html).not.toContain(secret);
  await expect(page.getByRole('button', { name: 'Share' })).toHaveCount(0);
  // The hidden fault's recovery comes only once solved.
  await expect(panel.getByText('How an operator recovers')).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'challenge view');

  // A wrong cause is refused, without naming the right one.
  await panel.getByLabel('There is no network configuration in /etc/cni/net.d').check();
  await panel.getByLabel('Restart containerd (systemctl restart containerd)').check();
  await panel.getByRole('button', { name: 'Submit answer' }).click();
  await expect(panel.getByText('Refused.')).toBeVisible({ timeout: 60_000 });
  await expect(panel.getByRole('status')).not.toContainText('not valid JSON');

  // The right cause and fix: the conflist is written back and the node recovers.
  await panel.getByLabel('The conflist in /etc/cni/net.d is not valid JSON').check();
  await panel.getByLabel('Restart containerd (systemctl restart containerd)').uncheck();
  await panel
    .getByLabel(
      "Restore the node's pod network conflist in /etc/cni/net.d from configuration management",
    )
    .check();
  await panel.getByRole('button', { name: 'Submit answer' }).click();
  await expect(panel.getByText('Solved: the node recovered.')).toBeVisible({ timeout: 60_000 });
  await expect(panel.getByText(/Score \d+ \/ 100/)).toBeVisible();
  await panel.getByText('How an operator recovers').click();
  await expect(panel.locator('.recovery')).toContainText('conflist');
  const saved = await page.evaluate<string | null>("localStorage.getItem('cnisim.course.v1')");
  expect(JSON.parse(saved ?? '{}').challenges['node-notready']).toMatchObject({
    solved: true,
    attempts: 2,
    seed: 1,
  });
  expect(errors).toEqual([]);
});

test('corrupted course progress gets a notice and is set aside', async ({ page }) => {
  await page.goto('./');
  await page.evaluate(`localStorage.setItem('cnisim.course.v1', '{"app":"cnisim-course",')`);
  await page.goto('./#/course');
  await expect(page.getByRole('heading', { name: 'Course' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'could not be read' })).toBeVisible();
  const kept = await page.evaluate<string | null>(
    "localStorage.getItem('cnisim.course.v1.damaged')",
  );
  expect(kept).toBe('{"app":"cnisim-course",');
});
