/**
 * The exchange's DevTools-like tabs in the detail pane: its timing (timing-view.tsx) and the raw
 * stream of its response (raw-stream.tsx), beside the parsed request and response below them.
 */
import { Tab, TabList, TabPanel, TabProvider } from '@ariakit/react';
import type { ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import { RawStreamView } from './raw-stream.js';
import { TimingView } from './timing-view.js';

export function ExchangeDevtools({ exchange }: { exchange: ExchangeSummary }) {
  return (
    <div className="exchange-devtools">
      <TabProvider defaultSelectedId="timing">
        <TabList className="tabs tabs-compact" aria-label="Timing and raw stream">
          <Tab id="timing" className="tab" data-testid="tab-timing">Timing</Tab>
          <Tab id="raw" className="tab" data-testid="tab-raw">Raw stream</Tab>
        </TabList>
        <TabPanel tabId="timing">
          <TimingView exchange={exchange} />
        </TabPanel>
        <TabPanel tabId="raw" unmountOnHide>
          <RawStreamView exchange={exchange} />
        </TabPanel>
      </TabProvider>
    </div>
  );
}
