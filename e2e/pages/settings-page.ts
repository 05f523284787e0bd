/** The Settings screen. */
import { expect, type Page } from '@playwright/test';

export class SettingsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-settings').click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  }

  async rotateToken(): Promise<void> {
    await this.page.getByTestId('rotate-token').click();
    await this.page.getByTestId('rotate-token-confirm').click();
  }
}
