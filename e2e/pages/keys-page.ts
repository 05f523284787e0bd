/** The Keys & logins screen. */
import { expect, type Page } from '@playwright/test';

export class KeysPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-keys').click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Keys & logins' })).toBeVisible();
  }

  async add(name: string, value: string): Promise<void> {
    const form = this.page.getByTestId('add-key-form');
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Value').fill(value);
    await form.getByRole('button', { name: 'Save key' }).click();
    await expect(this.page.getByTestId(`key-row-${name}`)).toBeVisible();
  }
}
