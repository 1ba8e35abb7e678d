/**
 * The short levels split from lessons 03, 04, 07, 08 and 09 (each first level keeps its old id),
 * and the containerd/CRI-O lesson, open in the app by id: each shows its three goals, and the
 * CRI-O lesson's cluster runs CRI-O (loaded late, outside the landing's engine) on node-2 beside
 * containerd on node-1.
 */
import { expect, test } from '@playwright/test';
import { clearSavedState, collectPageErrors } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

const LEVELS: [string, string][] = [
  ['del-idempotence', 'A DEL that hangs'],
  ['check-and-drift', 'CHECK finds drift'],
  ['errors-and-retry', "A plugin's error, and a retry from scratch"],
  ['partial-failure', 'An ADD that fails halfway'],
  ['version-mismatch', 'Versions: no negotiation, just a match'],
  ['del-retried', 'A retried DEL finds its work done'],
  ['nobody-checks', 'Nobody runs CHECK on containerd'],
  ['free-an-address', 'The retry that works'],
  ['failed-cleanup', 'When the clean-up DEL fails too'],
  ['fix-the-cause', 'Fix the cause, then check for leftovers'],
  ['version-check-at-load', 'The same version mismatch on CRI-O'],
  ['same-fault-two-runtimes', 'The same fault on containerd and on CRI-O'],
];

test('the split levels open by id (the first keeps the old one) with three goals each', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = collectPageErrors(page);
  for (const [id, title] of LEVELS) {
    await page.goto(`./#/lesson/${id}`);
    await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
      timeout: 30_000,
    });
    const lesson = page.getByRole('region', { name: title });
    await expect(lesson).toBeVisible({ timeout: 30_000 });
    await expect(lesson.getByRole('list', { name: 'Goals' }).getByRole('listitem')).toHaveCount(3);
  }
  // The last one: node-2 runs the pinned CRI-O release, node-1 the pinned containerd.
  await expect(page.getByText('cri-o 1.31.13').first()).toBeVisible();
  await expect(page.getByText('containerd 1.7.22').first()).toBeVisible();
  expect(errors).toEqual([]);
});
