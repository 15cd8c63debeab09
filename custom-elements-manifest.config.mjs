// @custom-elements-manifest/analyzer: custom-elements.json for the element.
// The cleanup plugin drops what static analysis gets wrong here: the internal
// reactive state (`current`, `blockedUrl`) seen as attributes, and the
// variable `type` of the private emit() helper seen as an event.
const INTERNAL = new Set(['current', 'blockedUrl', 'flow', 'lastConnection']);

const cleanup = {
  name: 'connect-provider-cleanup',
  packageLinkPhase({ customElementsManifest }) {
    for (const module of customElementsManifest.modules) {
      for (const declaration of module.declarations ?? []) {
        if (declaration.name !== 'ConnectProvider') continue;
        declaration.tagName = 'connect-provider';
        declaration.customElement = true;
        declaration.attributes = (declaration.attributes ?? []).filter((a) => !INTERNAL.has(a.fieldName ?? a.name));
        declaration.members = (declaration.members ?? []).filter((m) => !INTERNAL.has(m.name) && m.privacy !== 'private');
        declaration.events = (declaration.events ?? []).filter((e) => e.name.startsWith('connect-'));
        declaration.attributes.push({
          name: 'state',
          description: "The flow's state, reflected and read-only: idle, requesting, authorizing, verifying, working, bad_credentials, error, cancelled.",
          type: { text: 'ConnectState' },
          fieldName: 'state',
        });
      }
    }
  },
};

export default {
  globs: ['src/element/connect-provider.ts', 'src/element/define.ts'],
  outdir: '.',
  litelement: true,
  dependencies: false,
  plugins: [cleanup],
};
