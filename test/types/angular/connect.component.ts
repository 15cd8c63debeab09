// The documentation's (README.md, docs/frameworks.md) Angular snippet. Angular's strict templates type `$event` from
// HTMLElementEventMap, which the main entry extends: onSuccess's parameter is
// checked against connect-success's event (wrong.component.ts must fail).
// readme:start
import { Component, CUSTOM_ELEMENTS_SCHEMA } from '@angular/core';
import 'connect-provider';
import type { ConnectErrorDetail, ConnectSuccessDetail } from 'connect-provider';

@Component({
  selector: 'app-connect',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <connect-provider
      endpoint="/api/connect"
      provider="salesforce"
      [pollInterval]="500"
      (connect-success)="onSuccess($event)"
      (connect-error)="onError($event)"
    ></connect-provider>
  `,
})
export class ConnectComponent {
  onSuccess(event: CustomEvent<ConnectSuccessDetail>) {
    console.log('connected', event.detail.connection.id);
  }
  onError(event: CustomEvent<ConnectErrorDetail>) {
    console.warn(event.detail.code, event.detail.message);
  }
}
// readme:end
