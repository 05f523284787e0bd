/**
 * JSON as a collapsible tree (react-json-view-lite), or raw text. Memoized: a detail pane
 * re-renders on every live batch (several a second), and rebuilding a large body's tree each
 * time would stall the page.
 */
import { memo, useMemo, useState } from 'react';
import { allExpanded, collapseAllNested, darkStyles, defaultStyles, JsonView } from 'react-json-view-lite';
import 'react-json-view-lite/dist/index.css';
import { elideBase64 } from './json-elide.js';
import { usePrefersDark } from './use-prefers-dark.js';

// The library's themes put some values under 4.5:1 contrast on their backgrounds (numbers on its
// light grey, strings and numbers on its dark solarized blue): the value classes here
// (inspector.css) keep their look with readable colours, on the app's own surface — in the dark
// theme too (the library's own dark block is solarized teal, and its null a light teal).
const lightJsonStyles: typeof defaultStyles = { ...defaultStyles, container: `${defaultStyles.container} json-container`, stringValue: 'json-string', numberValue: 'json-number', booleanValue: 'json-boolean', nullValue: 'json-null', undefinedValue: 'json-null' };
const darkJsonStyles: typeof darkStyles = { ...darkStyles, container: `${darkStyles.container} json-container`, stringValue: 'json-dark-string', booleanValue: 'json-dark-boolean', numberValue: 'json-dark-number', nullValue: 'json-dark-null', undefinedValue: 'json-dark-null' };

export type JsonMode = 'tree' | 'raw';

export const JsonBlock = memo(function JsonBlock({ value, testId, mode = 'tree', expand }: { value: unknown; testId?: string; mode?: JsonMode; expand?: 'all' | 'top' | undefined }) {
  const dark = usePrefersDark();
  if (mode === 'raw' || value === null || typeof value !== 'object') {
    return (
      <pre className="json-pre" data-testid={testId} tabIndex={0} aria-label="JSON text">
        {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
      </pre>
    );
  }
  return <JsonTree value={value} testId={testId} expand={expand} dark={dark} />;
});

/** The tree, with long base64 strings elided until "Show all" (json-elide.ts). */
function JsonTree({ value, testId, expand, dark }: { value: object; testId?: string | undefined; expand?: 'all' | 'top' | undefined; dark: boolean }) {
  const [full, setFull] = useState(false);
  const elided = useMemo(() => elideBase64(value), [value]);
  const shown = (full ? value : elided.value) as object;
  const size = useMemo(() => JSON.stringify(shown).length, [shown]);
  const open = expand === 'all' || (expand === undefined && size <= 20_000);
  return (
    <>
      {elided.count > 0 && (
        <p className="json-elided small muted">
          {full ? 'Base64 data shown in full.' : `${elided.count} long base64 value${elided.count === 1 ? '' : 's'} shortened.`}{' '}
          <button type="button" className="link-button" onClick={() => setFull(!full)} data-testid="json-show-all">
            {full ? 'Shorten again' : 'Show all'}
          </button>
        </p>
      )}
      <div className="json" data-testid={testId}>
        <JsonView key={open ? 'open' : 'closed'} data={shown} style={dark ? darkJsonStyles : lightJsonStyles} shouldExpandNode={open ? allExpanded : collapseAllNested} clickToExpandNode />
      </div>
    </>
  );
}
