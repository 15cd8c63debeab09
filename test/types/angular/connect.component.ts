// The documentation's (docs/frameworks.md) Angular component. Angular's strict templates type `$event` from
// HTMLElementEventMap, which the main entry extends: each handler's parameter is checked against its event's type,
// named as the package exports it (wrong.component.ts must fail).
// readme:start
import { Component, CUSTOM_ELEMENTS_SCHEMA, signal } from '@angular/core';
import 'connect-provider';
import type {
  ConnectCancelDetail,
  ConnectErrorDetail,
  ConnectLoadedDetail,
  ConnectSuccessDetail,
} from 'connect-provider';

@Component({
  selector: 'app-connect',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <connect-provider
      endpoint="/api/connect"
      provider="salesforce"
      [pollInterval]="500"
      (connect-loaded)="onLoaded($event)"
      (connect-success)="onSuccess($event)"
      (connect-error)="onError($event)"
      (connect-cancel)="onCancel($event)"
    ></connect-provider>
    <p>{{ status() }}</p>
  `,
})
export class ConnectComponent {
  readonly status = signal('');
  onLoaded(event: CustomEvent<ConnectLoadedDetail>) {
    this.status.set(event.detail.connection ? `connected (${event.detail.connection.status})` : 'not connected');
  }
  onSuccess(event: CustomEvent<ConnectSuccessDetail>) {
    this.status.set(`connected (${event.detail.connection.id})`);
  }
  onError(event: CustomEvent<ConnectErrorDetail>) {
    this.status.set(`could not connect: ${event.detail.code}`);
    console.warn(event.detail.message);
  }
  onCancel(event: CustomEvent<ConnectCancelDetail>) {
    this.status.set(`cancelled (${event.detail.reason})`);
  }
}
// readme:end
