import { expect, test } from '@playwright/test';
import { clearSavedState, currentStep, expectNoSeriousAxeViolations, openApp } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

test('presenter mode: keyboard only, large type, the step narrated; print hides the controls', async ({
  page,
}) => {
  await openApp(page);
  const before = await page.evaluate(
    'parseFloat(getComputedStyle(document.documentElement).fontSize)',
  );
  await page.keyboard.press('p');
  await expect(page.getByRole('button', { name: 'Presenter' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect(
    await page.evaluate('parseFloat(getComputedStyle(document.documentElement).fontSize)'),
  ).toBeGreaterThan(before as number);
  const narration = page.getByRole('region', { name: 'Narration' });
  const start = await currentStep(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentStep(page)).toBe(start + 1);
  await expect(narration).toContainText(`Step ${start + 1}`);
  await expect(narration.locator('mark')).toContainText('create pod default/web-0');
  await expect(page.getByRole('region', { name: 'Cluster' })).toBeHidden();
  await expectNoSeriousAxeViolations(page, 'presenter mode');

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeHidden();
  await expect(narration).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  await page.keyboard.press('p');
  await expect(narration).toBeHidden();
  await expect(page.getByRole('region', { name: 'Cluster' })).toBeVisible();
});

test('presenter mode in a lesson: the lesson narrates the step, stepped with the keys', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('./#/lesson/add-step-by-step');
  const lesson = page.getByRole('region', { name: 'ADD, step by step' });
  await expect(lesson).toBeVisible({ timeout: 20_000 });
  await lesson.getByRole('button', { name: 'Replay the solution' }).click();
  await expect(lesson.getByText('replaying the solution')).toBeVisible();
  await page.locator('body').focus();
  await page.keyboard.press('p');
  const narration = page.getByRole('region', { name: 'Narration' });
  await expect(narration).toBeVisible();
  // Step with the keyboard until the lesson narrates the sandbox request.
  const said = 'The kubelet asks the runtime for a pod sandbox over CRI (RunPodSandbox).';
  for (let i = 0; i < 40 && !(await narration.getByText(said).isVisible()); i++)
    await page.keyboard.press('ArrowRight');
  await expect(narration.getByText(said)).toBeVisible();
  const step = await currentStep(page);
  await expect(narration).toContainText(`Step ${step}`);
  // What changed is lit; the lesson's sentence is the same the lesson panel shows, in large type.
  await expect(narration.locator('mark')).toContainText('RunPodSandbox');
  await expect(lesson.getByLabel('What happens at this step').getByText(said)).toBeVisible();
  const size = (sel: string) =>
    page.evaluate(
      `parseFloat(getComputedStyle(document.querySelector(${JSON.stringify(sel)})).fontSize)`,
    );
  expect(await size('.narration-lesson p')).toBeGreaterThan((await size('body')) as number);

  // The next step has no sentence of its own: the panel recalls the last one, and the keys go on.
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentStep(page)).toBe(step + 1);
  await expect(narration).toContainText(`Step ${step + 1}`);
  await page.keyboard.press('ArrowLeft');
  await expect(narration.getByText(said)).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'presenter mode in a lesson');
});
