// The main entry defines <connect-provider> alone (docs/element.md, "A whole integrations page"): a page that holds a
// <connect-integrations> with only this entry imported shows a blank, so the developer hears which import defines it.
import { aTimeout, expect } from '@open-wc/testing';
import { warnings } from './helpers.js';

describe('the main entry without the list', () => {
  it("should warn once that <connect-integrations> is not defined, naming 'connect-provider/integrations'", async () => {
    const seen = await warnings(async () => {
      // The page holds the list before the entry loads, as a page's markup does.
      document.body.insertAdjacentHTML(
        'beforeend',
        '<connect-integrations endpoint="/api/connect"></connect-integrations>',
      );
      await import('../../src/index.js');
      await aTimeout(1300);
    });
    expect(customElements.get('connect-provider')).to.not.equal(undefined);
    expect(customElements.get('connect-integrations')).to.equal(undefined);
    expect(seen.filter((line) => line.includes("import 'connect-provider/integrations'"))).to.have.length(1);
  });
});
