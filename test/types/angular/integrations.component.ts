// The documentation's (docs/element.md) Angular snippet for <connect-integrations>. Angular's strict templates type
// `$event` from HTMLElementEventMap, which connect-provider/integrations extends: onLoaded's and onSuccess's
// parameters are checked against the events' types (wrong-integrations.component.ts must fail). Angular does not
// check a custom element's attributes and property bindings (CUSTOM_ELEMENTS_SCHEMA): the fields bound to
// [descriptions] and [strings] are typed from the element instead.
// readme:start
import { Component, CUSTOM_ELEMENTS_SCHEMA } from '@angular/core';
import 'connect-provider/integrations';
import type {
  ConnectIntegrations,
  ConnectIntegrationsLoadedDetail,
  ConnectSuccessDetail,
} from 'connect-provider/integrations';

@Component({
  selector: 'app-integrations',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <connect-integrations
      endpoint="/api/connect"
      providers="hubspot salesforce slack"
      disconnectable
      [descriptions]="descriptions"
      [strings]="strings"
      (connect-integrations-loaded)="onLoaded($event)"
      (connect-success)="onSuccess($event)"
    ></connect-integrations>
  `,
})
export class IntegrationsComponent {
  descriptions: ConnectIntegrations['descriptions'] = { hubspot: 'Contacts and deals', slack: 'Alerts in a channel' };
  strings: ConnectIntegrations['strings'] = { search: 'Find an integration' };
  onLoaded(event: CustomEvent<ConnectIntegrationsLoadedDetail>) {
    console.log(event.detail.integrations.map((i) => i.displayName));
  }
  onSuccess(event: CustomEvent<ConnectSuccessDetail>) {
    console.log(event.detail.provider, event.detail.connection.id);
  }
}
// readme:end

// Each line below must fail to compile; an `any` would let it pass (TS2578: unused directive).
// @ts-expect-error descriptions' values are text
export const wrongDescriptions: ConnectIntegrations['descriptions'] = { hubspot: 1 };
// @ts-expect-error strings has no key `nope` (neither the list's nor a row's)
export const wrongStrings: ConnectIntegrations['strings'] = { nope: 'x' };
