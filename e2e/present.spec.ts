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

// A projector: the whole screen is used, the topology and the narration large, the steps beside
// them; no band of blank screen (the cluster pane's row was left empty: 399 px at 1920×1080).
for (const [width, height] of [
  [1280, 720],
  [1920, 1080],
] as const) {
  test.describe(`presenter mode at ${width}×${height}`, () => {
    test.use({ viewport: { width, height } });

    test('the topology, the narration and the steps fill the screen', async ({ page }) => {
      await openApp(page);
      await page.keyboard.press('p');
      const narration = page.getByRole('region', { name: 'Narration' });
      await expect(narration).toBeVisible();
      for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
      await expect.poll(() => currentStep(page)).toBeGreaterThanOrEqual(20);
      const views = page.getByRole('region', { name: 'Views' });
      await expect(views.getByRole('tab', { name: 'Topology' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      const topo = views.locator('svg.topo-svg');
      await expect(topo).toBeVisible({ timeout: 15_000 });
      const steps = page.getByRole('region', { name: 'Steps' });
      await expect(steps).toBeVisible();

      const box = async (l: ReturnType<typeof page.locator>) => (await l.boundingBox())!;
      const t = await box(topo);
      const s = await box(steps);
      const n = await box(narration);
      const area = width * height;
      // The topology: at least a quarter of the screen; the steps: a sixth; both reach down to
      // the bottom of the screen, and the page does not scroll.
      expect((t.width * t.height) / area).toBeGreaterThan(0.25);
      expect((s.width * s.height) / area).toBeGreaterThan(0.15);
      expect(s.y + s.height).toBeGreaterThan(height - 24);
      expect(t.y + t.height).toBeGreaterThan(height - 120);
      expect(n.width).toBeGreaterThan(width * 0.9);
      expect(await page.evaluate('document.documentElement.scrollHeight')).toBeLessThanOrEqual(
        height + 1,
      );
      // Large type in the narration.
      const px = (sel: string) =>
        page.evaluate(
          `parseFloat(getComputedStyle(document.querySelector(${JSON.stringify(sel)})).fontSize)`,
        ) as Promise<number>;
      expect(await px('.narration')).toBeGreaterThanOrEqual(20);

      // The step list is usable: the current step is in view with several rows, a click selects.
      const step = await currentStep(page);
      const current = steps.locator('li[aria-current="step"]');
      await expect(current).toContainText(String(step));
      await expect(current).toBeInViewport();
      const rows = steps.getByRole('listitem');
      let inView = 0;
      for (let i = 0; i < (await rows.count()); i++)
        if (await rows.nth(i).isVisible()) {
          const r = (await rows.nth(i).boundingBox())!;
          if (r.y >= s.y && r.y + r.height <= s.y + s.height) inView++;
        }
      expect(inView).toBeGreaterThanOrEqual(4);
      await steps.locator(`li[data-step="${step - 3}"] button`).click();
      await expect.poll(() => currentStep(page)).toBe(step - 2);
      await expect(narration).toContainText(`Step ${step - 2}`);
    });

    test('in a lesson, the lesson panel leaves the view and the steps on the screen', async ({
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
      for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
      const topo = page.getByRole('region', { name: 'Views' }).locator('svg.topo-svg');
      await expect(topo).toBeVisible({ timeout: 15_000 });
      const steps = page.getByRole('region', { name: 'Steps' });
      const t = (await topo.boundingBox())!;
      const s = (await steps.boundingBox())!;
      // The lesson panel scrolls within itself: the page does not, and the view and the steps
      // reach the bottom of the screen with room to read them.
      expect(await page.evaluate('document.documentElement.scrollHeight')).toBeLessThanOrEqual(
        height + 1,
      );
      expect((t.width * t.height) / (width * height)).toBeGreaterThan(0.15);
      expect(s.y + s.height).toBeGreaterThan(height - 24);
      await expect(steps.locator('li[aria-current="step"]')).toBeInViewport();
    });
  });
}

test('presenter mode: after the window is resized, the current step is still in the Steps list', async ({
  page,
}) => {
  // The instructor starts on a laptop screen, then moves the window to the projector and back.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openApp(page);
  await page.keyboard.press('p');
  await expect(page.getByRole('region', { name: 'Narration' })).toBeVisible();
  for (let i = 0; i < 14; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentStep(page)).toBeGreaterThanOrEqual(22);
  const steps = page.getByRole('region', { name: 'Steps' });
  const current = steps.locator('li[aria-current="step"]');
  /** Whether the current row lies wholly inside the list's scrolled box. */
  const shown = async () => {
    const body = (await steps.locator('.side-steps-body').boundingBox())!;
    const row = (await current.boundingBox())!;
    return row.y >= body.y - 1 && row.y + row.height <= body.y + body.height + 1;
  };
  await expect.poll(shown).toBe(true);
  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
    [1024, 600],
    [1280, 720],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect.poll(shown, { message: `current step shown at ${width}×${height}` }).toBe(true);
  }
  // And the keys still step: the new current row comes into view as before.
  const step = await currentStep(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentStep(page)).toBe(step + 1);
  await expect.poll(shown).toBe(true);
});
