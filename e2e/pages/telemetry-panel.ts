/** Settings → Telemetry (OpenTelemetry): the status, the settings in effect, and the form. */
import type { Locator, Page } from '@playwright/test';

export class TelemetryPanel {
  readonly root: Locator;
  readonly form: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('telemetry-panel');
    this.form = page.getByTestId('telemetry-form');
  }

  status(): Locator {
    return this.root.getByTestId('telemetry-status');
  }

  /** A row of the "in effect" table: `endpoint`, `serviceName`, `headers`, … */
  effective(key: string): Locator {
    return this.root.getByTestId(`effective-${key}`);
  }

  field(label: string): Locator {
    return this.form.getByLabel(label, { exact: true });
  }

  /** Adds a header whose value is a stored key, through the picker. */
  async addSecretHeader(name: string, secret: string): Promise<void> {
    const editor = this.form.getByTestId('telemetry-headers');
    await editor.getByRole('button', { name: 'Add header' }).click();
    // The new row is the last one; its value's picker is labelled by the name once it is typed.
    await editor.getByLabel(/^Header \d+$/).last().fill(name);
    await editor.getByLabel(`Use a stored key for ${name}`).selectOption(secret);
  }

  async save(): Promise<void> {
    await this.form.getByTestId('telemetry-save').click();
  }
}
