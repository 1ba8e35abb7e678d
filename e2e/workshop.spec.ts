/**
 * The workshop core's first three levels, by keyboard alone: the goal drawn beside the state
 * ("Show goal"), the actions, "Run until", and a prediction in each level that the narration
 * pauses for before the step it is about.
 */
import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

/** Presses Tab until the focused element satisfies `test` (keyboard only: no click, no focus()). */
async function tabTo(page: Page, what: string, test: string, back = false): Promise<void> {
  for (let i = 0; i < 250; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await page.evaluate(test)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

const focused = (expr: string) =>
  `(() => { const e = document.activeElement; return !!e && (${expr}); })()`;

async function openLevel(page: Page, id: string, title: string) {
  await page.goto(`./#/lesson/${id}`);
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 20_000,
  });
  const lesson = page.getByRole('region', { name: title });
  await expect(lesson).toBeVisible({ timeout: 20_000 });
  return lesson;
}

/** The Actions tab of the Cluster pane: Tab to its selected tab, then the arrow keys. */
async function actionsTab(page: Page) {
  const actions = page.getByRole('tab', { name: 'Actions' });
  if ((await actions.getAttribute('aria-selected')) === 'true') return;
  await tabTo(
    page,
    'the Pods tab',
    focused(`e.getAttribute('role') === 'tab' && e.textContent === 'Pods'`),
  );
  for (let i = 0; i < 6 && (await actions.getAttribute('aria-selected')) !== 'true'; i++)
    await page.keyboard.press('ArrowRight');
  await expect(actions).toHaveAttribute('aria-selected', 'true');
}

/** Run until the option whose value is `value`, picked in the select with the keyboard. */
async function runUntil(page: Page, value: 'running' | 'idle') {
  await tabTo(
    page,
    'the Run until select',
    focused(`e.tagName === 'SELECT' && e.closest('label')?.textContent?.startsWith('Run until')`),
    // The controls are above the lesson and the Cluster pane: back is shorter.
    true,
  );
  await page.keyboard.press(value === 'running' ? 'a' : 'End');
  await expect(page.getByRole('combobox', { name: 'Run until' })).toHaveValue(value);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
}

/**
 * The prediction the run stopped for: its first choice has the focus; the arrow keys go to
 * choice `index`, Space checks it, Tab and Enter submit it.
 */
async function predict(page: Page, lesson: ReturnType<Page['getByRole']>, index: number) {
  const form = lesson.getByRole('form', { name: 'Prediction' });
  await expect(form).toBeVisible({ timeout: 30_000 });
  await expect(form.getByRole('radio').first()).toBeFocused();
  await page.keyboard.press('Space');
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await expect(form.getByRole('radio').nth(index)).toBeChecked();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(lesson.getByText('Right prediction.')).toBeVisible();
}

test('the workshop core: three levels by keyboard, with predictions and Show goal', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = collectPageErrors(page);

  // Level 1: a pod's first ADD. The goal first: the pod and its wiring are not there yet.
  let lesson = await openLevel(page, 'add-step-by-step', 'ADD, step by step');
  await tabTo(
    page,
    'Show goal',
    focused(`e.tagName === 'BUTTON' && e.textContent === 'Show goal'`),
  );
  await page.keyboard.press('Enter');
  const goal = lesson.getByLabel('The goal beside your state');
  await expect(goal.getByRole('list', { name: 'Pods, goal' })).toContainText(
    'web-0 on node-1: Running, 10.244.1.2 (not there yet)',
    { timeout: 30_000 },
  );
  await expect(goal.getByRole('list', { name: 'node-1: files, goal' })).toContainText(
    '/var/lib/cni/networks/containerd-net/10.244.1.2 → web-0 (not there yet)',
  );
  await actionsTab(page);
  await tabTo(
    page,
    'the pod name field',
    focused(`e.tagName === 'INPUT' && e.closest('label')?.textContent?.startsWith('Pod name')`),
  );
  await page.keyboard.type('web-0');
  await page.keyboard.press('Enter');
  await runUntil(page, 'running');
  // The run stops before bridge's ADD and asks which plugin comes first: bridge (the first choice).
  await predict(page, lesson, 0);
  await expect(lesson.getByText(/What happened: bridge\./)).toBeVisible();
  await runUntil(page, 'running');
  await expect(lesson.getByText('Every goal is met: lesson complete.')).toBeVisible({
    timeout: 30_000,
  });
  // At the goal, Show goal has nothing left to mark.
  await expect(goal).toContainText('Your state matches the goal.');

  // Level 2: a plain DEL. Which plugin does DEL reach first? portmap (the second choice).
  lesson = await openLevel(page, 'plain-del', 'A plain DEL');
  await actionsTab(page);
  await tabTo(
    page,
    'Delete pod',
    focused(`e.tagName === 'BUTTON' && e.textContent === 'Delete pod'`),
  );
  await page.keyboard.press('Enter');
  await runUntil(page, 'idle');
  await predict(page, lesson, 1);
  await runUntil(page, 'idle');
  await expect(lesson.getByText('Every goal is met: lesson complete.')).toBeVisible({
    timeout: 30_000,
  });

  // Level 3: where the next address comes from: 10.244.1.4 (the second choice), not web-0's .2.
  lesson = await openLevel(page, 'pod-ip-origin', 'Where the pod IP comes from');
  await actionsTab(page);
  await tabTo(
    page,
    'Delete pod',
    focused(`e.tagName === 'BUTTON' && e.textContent === 'Delete pod'`),
  );
  await page.keyboard.press('Enter');
  await runUntil(page, 'idle');
  await tabTo(
    page,
    'the pod name field',
    focused(`e.tagName === 'INPUT' && e.closest('label')?.textContent?.startsWith('Pod name')`),
  );
  await page.keyboard.type('web-2');
  await page.keyboard.press('Enter');
  await runUntil(page, 'running');
  await predict(page, lesson, 1);
  await runUntil(page, 'running');
  await expect(lesson.getByText('Every goal is met: lesson complete.')).toBeVisible({
    timeout: 30_000,
  });
  expect(errors).toEqual([]);
});
