/**
 * A side sheet that stays in view over the screen (Ariakit's Dialog: focus kept inside, Escape
 * and the close button dismiss it, focus returns to what opened it). For flows that need room
 * next to what they came from: a client export, a comparison.
 */
import { Dialog, DialogDismiss, DialogHeading } from '@ariakit/react';
import type { ReactNode } from 'react';
import { Icon } from './icons.js';

export function Drawer(props: { open: boolean; onClose(): void; title: ReactNode; children: ReactNode; testId?: string; wide?: boolean; footer?: ReactNode }) {
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      className={`drawer${props.wide ? ' drawer-wide' : ''}`}
      backdrop={<div className="drawer-backdrop" />}
      data-testid={props.testId}
      unmountOnHide
    >
      <header className="drawer-header">
        <DialogHeading className="drawer-title">{props.title}</DialogHeading>
        <DialogDismiss className="icon-button" aria-label="Close">
          <Icon name="close" />
        </DialogDismiss>
      </header>
      <div className="drawer-body">{props.children}</div>
      {props.footer && <footer className="drawer-footer">{props.footer}</footer>}
    </Dialog>
  );
}

/**
 * A centred dialog the person must answer (a server's elicitation or sampling request). The close
 * button and Escape call `onClose` (the caller says what closing means: cancel, decline). The
 * footer (the answer's buttons) stays in view below the body, which scrolls: a long form never
 * pushes its Accept out of sight.
 */
export function Modal(props: { open: boolean; onClose(): void; title: ReactNode; children: ReactNode; testId?: string; footer?: ReactNode; closeLabel?: string }) {
  return (
    <Dialog open={props.open} onClose={props.onClose} className="modal" backdrop={<div className="drawer-backdrop" />} data-testid={props.testId} unmountOnHide>
      <header className="drawer-header">
        <DialogHeading className="drawer-title">{props.title}</DialogHeading>
        <DialogDismiss className="icon-button" aria-label={props.closeLabel ?? 'Close'} data-testid={props.testId ? `${props.testId}-close` : undefined}>
          <Icon name="close" />
        </DialogDismiss>
      </header>
      <div className="modal-body">{props.children}</div>
      {props.footer && <footer className="drawer-footer modal-footer">{props.footer}</footer>}
    </Dialog>
  );
}
