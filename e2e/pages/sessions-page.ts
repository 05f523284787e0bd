/** The Sessions screen: the live list and one session's timeline. */
import { expect, type Locator, type Page } from '@playwright/test';

export class SessionsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-sessions').click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  }

  sessionLink(client: string): Locator {
    return this.page.getByTestId('sessions-table').getByRole('link', { name: new RegExp(client) });
  }

  rows(method?: string): Locator {
    const rows = this.page.getByTestId('timeline-row');
    return method ? rows.and(this.page.locator(`[data-method="${method}"]`)) : rows;
  }

  timeline(): Locator {
    return this.page.getByRole('tree', { name: 'Messages of this session' });
  }

  detail(): Locator {
    return this.page.getByTestId('detail');
  }
}
