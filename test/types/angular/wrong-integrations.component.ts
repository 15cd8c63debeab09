// Must NOT compile under ngc's strict templates: each handler expects a detail that its event does not carry, and
// the last reads a row's connection, which may be null. If `$event` were `any` or `Event` (no typing), this would
// compile, and the test fails.
import { Component, CUSTOM_ELEMENTS_SCHEMA } from '@angular/core';
import 'connect-provider/integrations';

@Component({
  selector: 'app-wrong-integrations',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <connect-integrations
      endpoint="/api/connect"
      (connect-integrations-loaded)="onLoaded($event)"
      (connect-success)="onSuccess($event)"
    ></connect-integrations>
    <connect-integrations
      endpoint="/api/connect"
      (connect-integrations-loaded)="firstId = $event.detail.integrations[0].connection.id"
    ></connect-integrations>
  `,
})
export class WrongIntegrationsComponent {
  firstId = '';
  onLoaded(event: CustomEvent<{ integrations: string[] }>) {
    console.log(event.detail.integrations);
  }
  onSuccess(event: CustomEvent<{ provider: number }>) {
    console.log(event.detail.provider);
  }
}
