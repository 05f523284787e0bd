/** An update of an installed server: the entry's diff (`catalog.update`, apply: false), applied on confirm. */
import { useEffect, useState } from 'react';
import type { CatalogUpdate } from '../../../shared/api/catalog-contract.js';
import { DiffView } from '../../components/diff-view.js';
import { Drawer } from '../../components/drawer.js';
import { ErrorMessage } from '../../components/error-message.js';
import { applyUpdate, previewUpdate } from '../../app/catalog-commands.js';
import { useServices } from '../../app/services.js';

export function UpdateDrawer({ serverId, version, onClose }: { serverId: string; version: string; onClose(): void }) {
  const services = useServices();
  const [preview, setPreview] = useState<CatalogUpdate>();
  const [error, setError] = useState<string>();
  const [applying, setApplying] = useState(false);
  useEffect(() => {
    let live = true;
    previewUpdate(services, serverId, version).then(
      (p) => live && setPreview(p),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [services, serverId, version]);
  const apply = async (): Promise<void> => {
    setApplying(true);
    try {
      await applyUpdate(services, serverId, version);
      onClose();
    } catch (e) {
      setError((e as Error).message);
      setApplying(false);
    }
  };
  return (
    <Drawer
      open
      onClose={onClose}
      wide
      title={`Update ${serverId}${preview ? ` from ${preview.from} to ${preview.to}` : ''}`}
      testId="update-drawer"
      footer={
        <div className="form-actions">
          <button type="button" className="button button-primary" disabled={!preview || applying} onClick={() => void apply()} data-testid="update-apply">
            {applying ? 'Updating…' : `Update to ${preview?.to ?? version}`}
          </button>
          <button type="button" className="button" onClick={onClose}>Cancel</button>
        </div>
      }
    >
      <p className="muted">The entry in config.json changes as shown (secrets stay references). After the update its tools wait for your approval again.</p>
      {error && <ErrorMessage testId="update-error">{error}</ErrorMessage>}
      {!preview && !error && <p className="muted"><span className="spinner" aria-hidden="true" /> Reading the new version…</p>}
      {preview && <DiffView diff={preview.diff} name={`${serverId}.json`} viewType="unified" labels={[preview.from, preview.to]} testId="update-diff" />}
    </Drawer>
  );
}
