// Must NOT compile under ngc's strict templates: the handler expects a detail
// that connect-success does not carry. If `$event` were `any` or `Event`
// (no typing), this would compile, and the test fails.
import { Component, CUSTOM_ELEMENTS_SCHEMA } from '@angular/core';
import 'connect-provider';

@Component({
  selector: 'app-wrong',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `<connect-provider endpoint="/api/connect" (connect-success)="onSuccess($event)"></connect-provider>`,
})
export class WrongComponent {
  onSuccess(event: CustomEvent<{ nope: number }>) {
    console.log(event.detail.nope);
  }
}
