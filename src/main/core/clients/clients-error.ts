/** Our own failures in client work: a stable code and a message a person can act on. */
export type ClientsErrorCode =
  | 'unknown_client'
  | 'unknown_server'
  | 'unknown_profile'
  | 'server_disabled'
  | 'kind_unsupported'
  | 'client_config_invalid'
  | 'client_config_unreadable'
  | 'client_config_unsupported'
  | 'client_config_uneditable'
  | 'client_config_changed'
  | 'no_backup'
  | 'unknown_fix';

export class ClientsError extends Error {
  constructor(
    readonly code: ClientsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ClientsError';
  }
}
