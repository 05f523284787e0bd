/**
 * JSON as a collapsible tree (react-json-view-lite), or raw text. Memoized: a detail pane
 * re-renders on every live batch (several a second), and rebuilding a large body's tree each
 * time would stall the page.
 */
import { memo } from 'react';
import { allExpanded, collapseAllNested, darkStyles, defaultStyles, JsonView } from 'react-json-view-lite';
import 'react-json-view-lite/dist/index.css';
import { usePrefersDark } from './use-prefers-dark.js';

// The library's themes put some values under 4.5:1 contrast on their backgrounds (numbers on its
// light grey, strings and numbers on its dark solarized blue): the value classes here
// (inspector.css) keep their look with readable colours, on the app's own surface.
const lightJsonStyles: typeof defaultStyles = { ...defaultStyles, container: `${defaultStyles.container} json-container`, stringValue: 'json-string', numberValue: 'json-number', booleanValue: 'json-boolean', nullValue: 'json-null', undefinedValue: 'json-null' };
const darkJsonStyles: typeof darkStyles = { ...darkStyles, stringValue: 'json-dark-string', booleanValue: 'json-dark-boolean', numberValue: 'json-dark-number' };

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
  const size = JSON.stringify(value).length;
  const open = expand === 'all' || (expand === undefined && size <= 20_000);
  return (
    <div className="json" data-testid={testId}>
      <JsonView key={open ? 'open' : 'closed'} data={value as object} style={dark ? darkJsonStyles : lightJsonStyles} shouldExpandNode={open ? allExpanded : collapseAllNested} clickToExpandNode />
    </div>
  );
});
