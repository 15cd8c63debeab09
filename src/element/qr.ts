// Internal: the QR code of the link way, part of its lazily loaded chunk (link-block.ts). It is lean-qr's nano build
// (davidje13/lean-qr, MIT), which the package build bundles into dist/element/link-block.js, so an element-only user
// installs lit and nothing else (docs/element.md, "Iframes and popup policies").
import { correction, generate } from 'lean-qr/nano';

/** A QR code of `text`: its side in modules with a 4-module quiet zone, and the SVG path of its dark modules. */
export function qrPath(text: string): { side: number; d: string } {
  // Level M at least (lean-qr takes a higher one when the same size has room): ~15% of the code may be unreadable.
  const code = generate(text, { minCorrectionLevel: correction.M });
  let d = '';
  for (let y = 0; y < code.size; y++)
    for (let x = 0; x < code.size; x++) if (code.get(x, y)) d += `M${x + 4} ${y + 4}h1v1h-1z`;
  return { side: code.size + 8, d };
}
