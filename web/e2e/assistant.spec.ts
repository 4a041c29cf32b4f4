import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp } from './helpers';

test('assistant: usage, threads rename and delete, a clear message when AI is not configured', async ({ page }) => {
  await signUp(page);
  await makeRecipe(page, 'Chat Stout');
  const usage = await api<{ configured: boolean }>(page.request, 'GET', '/v1/ai/usage');
  const t = await api<{ id: string }>(page.request, 'POST', '/v1/chats', { title: 'Water chemistry' });
  await page.goto('/assistant');
  await expect(page.getByText(/messages and .* tokens used today/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Water chemistry' })).toBeVisible();
  await checkPage(page);

  await page.getByRole('button', { name: 'Rename Water chemistry' }).click();
  await page.getByRole('dialog').getByLabel('Title').fill('Mash pH');
  await page.getByRole('dialog').getByRole('button', { name: 'Save title' }).click();
  await expect(page.getByRole('link', { name: 'Mash pH' })).toBeVisible();
  await page.getByRole('link', { name: 'Mash pH' }).click();
  await expect(page).toHaveURL(new RegExp(`/assistant/${t.id}$`));
  await page.getByRole('button', { name: 'Delete Mash pH' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete conversation' }).click();
  await expect(page.getByText('No conversations yet.')).toBeVisible();
  await expect(page).toHaveURL(/\/assistant$/);

  await page.getByLabel('Recipe (optional)').selectOption({ label: 'Chat Stout' });
  await page.getByLabel('Message').fill('How do I make it roastier?');
  if (!usage.configured) {
    await expect(page.getByText('AI is not configured on this server', { exact: false }).first()).toBeVisible();
    // Send is off, and says why; what was typed is kept.
    const send = page.getByRole('button', { name: 'Send' });
    await expect(send).toBeDisabled();
    await expect(send).toHaveAccessibleDescription('Sending is off: AI is not configured on this server.');
    await expect(page.getByLabel('Message')).toHaveValue('How do I make it roastier?');
    await checkPage(page);
  } else {
    await page.getByRole('button', { name: 'Send' }).click();
    // The streamed answer is stored in a new thread, which opens; usage counts the message.
    await expect(page).toHaveURL(/\/assistant\/[0-9a-f-]{36}$/, { timeout: 20_000 });
    await expect(page.getByText('How do I make it roastier?').last()).toBeVisible();
    await expect(page.getByText(/^1 of \d+ messages/)).toBeVisible();
    await expect(page.getByLabel('Message')).toHaveValue('');
    await checkPage(page);
  }
});
