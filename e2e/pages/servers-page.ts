/** The Servers screen, as a person uses it: the list, the add/edit form, a server's page. */
import { expect, type Locator, type Page } from '@playwright/test';

export class ServersPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-servers').click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
  }

  row(id: string): Locator {
    return this.page.getByTestId(`server-row-${id}`);
  }

  /** Fills the stdio form and saves (which tests the server right away). */
  async addStdio(entry: { name: string; command: string; args: string[]; env?: Record<string, string> }): Promise<void> {
    await this.page.getByTestId('add-server').click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Add a server' })).toBeVisible();
    await this.page.getByLabel('Name', { exact: true }).fill(entry.name);
    await this.page.getByLabel('Local program (stdio)').check();
    await this.page.getByLabel('Command', { exact: true }).fill(entry.command);
    await this.page.getByLabel('Arguments').fill(entry.args.join('\n'));
    for (const [key, value] of Object.entries(entry.env ?? {})) {
      await this.page.getByRole('button', { name: 'Add variable' }).click();
      await this.page.getByLabel(/^Variable \d+$/).last().fill(key);
      await this.page.getByLabel(new RegExp(`^Value of ${key}$`)).fill(value);
    }
    await this.page.getByTestId('save-server').click();
  }

  async editCommand(id: string, command: string): Promise<void> {
    await this.page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: `Edit ${id}` })).toBeVisible();
    await this.page.getByLabel('Command', { exact: true }).fill(command);
    await this.page.getByTestId('save-server').click();
  }

  tools(): Locator {
    return this.page.getByTestId('test-tools');
  }
}
