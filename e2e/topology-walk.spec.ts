/**
 * The packet walk on the topology (issue 18) and the goal's topology in Show goal (issue 15): a
 * cross-node ping in a host-gw cluster, stepped hop by hop on a drawing of both nodes and the
 * underlay; a lesson's goal drawn beside the learner's state with what is not there yet marked.
 */
import { expect, test } from '@playwright/test';
import {
  clearSavedState,
  collectPageErrors,
  currentStep,
  expectNoSeriousAxeViolations,
} from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

test('a cross-node ping in a host-gw cluster, hop by hop on the topology', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = collectPageErrors(page);
  // Two nodes on a host-gw underlay, web-0 and web-1 on node-1, db-0 on node-2, all Running.
  await page.goto('./#/scenario/cross-node-host-gw?step=202');
  await expect.poll(() => currentStep(page), { timeout: 30_000 }).toBe(202);

  await page.getByRole('tab', { name: 'Packets', exact: true }).click();
  await page
    .getByRole('combobox', { name: 'Packet source', exact: true })
    .selectOption({ label: 'pod web-0 (node-1)' });
  const to = page.getByRole('combobox', { name: 'Packet destination', exact: true });
  await expect(to.locator('option', { hasText: 'pod db-0' })).toHaveCount(1);
  const db0 = (await to.locator('option').allTextContents()).find((t) => t.startsWith('pod db-0'));
  expect(db0).toBeDefined();
  await to.selectOption({ label: db0! });
  await page.getByRole('button', { name: 'Walk the packet' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'ping' })).toContainText(
    'delivered, and the reply came back',
  );

  // The topology is shown beside the walk: both nodes, the underlay with each node's IP.
  const topo = page.getByRole('region', { name: 'Topology' });
  await expect(topo.locator('svg.topo-svg')).toBeVisible({ timeout: 15_000 });
  await expect(topo.locator('text.topo-node-label')).toHaveText([/^node-1/, /^node-2/]);
  const underlay = topo.getByRole('group', { name: /^Underlay network 172\.18\.0\.0\/16/ });
  await expect(underlay).toHaveAttribute('aria-label', /node-1 eth0 172\.18\.0\.2/);
  await expect(underlay).toHaveAttribute('aria-label', /node-2 eth0 172\.18\.0\.3/);
  await expect(underlay).toHaveAttribute('aria-label', /host-gw/);
  await expect(topo.locator('line.topo-wire')).toHaveCount(2);

  // The first hop: in web-0's namespace, highlighted on its chip; the list marks it too.
  const bar = topo.getByRole('region', { name: 'Packet walk on the topology' });
  const text = bar.locator('.topo-hop-text');
  await expect(text).toContainText(/^Hop 1 of \d+ \(request\): node-1 · eth0 · output/);
  await expect(topo.locator('.topo-podns ~ .topo-chip.is-hop')).toHaveCount(1);
  await expect(bar.getByRole('button', { name: 'Previous hop' })).toBeDisabled();
  const hops = page.getByRole('list', { name: 'Hops' });
  await expect(hops.locator('li[aria-current="step"]')).toHaveCount(1);

  // Step with the keyboard, from the Next hop button, until the packet is on the underlay wire.
  const next = bar.getByRole('button', { name: 'Next hop' });
  await next.click();
  await expect(text).toContainText(/^Hop 2 of/);
  const stepBefore = await currentStep(page);
  let seen = false;
  for (let i = 0; i < 12 && !seen; i++) {
    await page.keyboard.press('ArrowRight');
    seen = /· wire/.test((await text.textContent()) ?? '');
  }
  expect(seen).toBe(true);
  // The arrow keys walked hops, not the trace.
  expect(await currentStep(page)).toBe(stepBefore);
  await expect(text).toContainText('on the underlay (underlay) from node-1 to node-2');
  await expect(topo.locator('line.topo-wire.is-hop')).toHaveCount(1);
  await expect(topo.locator('.topo-underlay.is-hop')).toHaveCount(1);
  await expect(underlay).toHaveAttribute('aria-label', /the packet is here: on the wire eth0/);

  // Then node-2's side: the next hop is received on node-2's eth0.
  await page.keyboard.press('ArrowRight');
  await expect(text).toContainText(/node-2 · eth0 · recv/);
  // End: the reply delivered back in web-0's namespace.
  await page.keyboard.press('End');
  await expect(text).toContainText(/\(reply\): node-1 · eth0 · deliver/);
  await expect(next).toBeDisabled();
  // At the end the button keeps the focus (aria-disabled): the keys still walk the hops.
  await expect(next).toBeFocused();
  await page.keyboard.press('Home');
  await expect(text).toContainText(/^Hop 1 of/);

  // A hop chosen in the Packets panel's list is the one the topology shows.
  await page.getByRole('button', { name: 'Show hop 3 on the topology' }).click();
  await expect(text).toContainText(/^Hop 3 of/);
  await expect(hops.locator('li').nth(2)).toHaveAttribute('aria-current', 'step');

  await expectNoSeriousAxeViolations(page, 'the topology with a packet walk');

  // The walk belongs to its step: a step back closes it.
  await page.getByRole('button', { name: 'Step back', exact: true }).click();
  await expect(bar).toHaveCount(0);
  await expect(topo.locator('.is-hop')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("Show goal draws the goal's topology beside the learner's, marking what is missing", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = collectPageErrors(page);
  await page.goto('./#/lesson/add-step-by-step');
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 20_000,
  });
  const lesson = page.getByRole('region', { name: 'ADD, step by step' });
  await expect(lesson).toBeVisible({ timeout: 20_000 });
  await lesson.getByRole('button', { name: 'Show goal' }).click();
  const goal = lesson.getByLabel('The goal beside your state');
  await expect(goal.getByRole('heading', { name: 'Topology' })).toBeVisible({ timeout: 30_000 });

  const mine = goal.getByRole('group', { name: /^Your topology at step/ });
  const target = goal.getByRole('group', { name: /^The goal's topology/ });
  await expect(mine).toBeVisible();
  await expect(target).toBeVisible();
  // The goal has web-0's namespace with eth0, which the start does not have yet.
  await expect(
    target.getByRole('group', { name: /^Pod namespace default\/web-0 \(not there yet\)/ }),
  ).toBeVisible();
  await expect(target.locator('.topo-chip.is-missing').first()).toBeVisible();
  await expect(mine.getByRole('group', { name: /^Pod namespace/ })).toHaveCount(0);
  await expect(goal.locator('.goal-topo-summary')).toContainText('not there yet');
  await expectNoSeriousAxeViolations(page, 'Show goal with the topologies');
  expect(errors).toEqual([]);
});
